import { beforeEach, describe, expect, it } from "bun:test";
import { addressOfNode, createMemoryStore, type Store } from "@uwf/cas";
import { createSampleNodes, sampleThreadId, sampleThreadRecord } from "@uwf/cas/test";
import type { Address, AgentRunNode, ThreadStepNode } from "@uwf/protocol";
import { deriveRecoveredLineage } from "./derive-recovered-lineage.ts";
import { findUnrecordedHeads } from "./find-unrecorded-heads.ts";
import { chainOf, scanThreadNodes } from "./scan-thread-nodes.ts";

const nodes = createSampleNodes();
const sampleRun = nodes["agent-run/1"] as AgentRunNode;
const sampleStep = nodes["thread-step/1"] as ThreadStepNode;
const T1 = sampleThreadId(1);
const T2 = sampleThreadId(2);
const T3 = sampleThreadId(3);
const now = () => new Date("2026-06-01T00:00:00.000Z");

let store: Store;
let clock = 0;
beforeEach(async () => {
  store = createMemoryStore();
  clock = 0;
  // Every sample node but its step, whose run names no thread: each test writes the steps it needs.
  await store.objects.putMany(
    Object.entries(nodes).flatMap(([kind, node]) => (kind === "thread-step/1" ? [] : [node])),
  );
});

/** Writes a step after `prev` (null: the first), run by `thread` (null: a run that names none), a minute after the last. */
async function step(prev: Address | null, thread: string | null, options: { manual?: boolean } = {}): Promise<Address> {
  clock++;
  const at = new Date(Date.UTC(2026, 0, 1, 0, clock)).toISOString();
  const run = await store.objects.put({
    ...sampleRun,
    ...(thread === null ? {} : { thread }),
    ...(options.manual === true ? { agent: "manual", extraction: "manual" } : {}),
    attempts: [{ ...sampleRun.attempts[0], startedAt: at, completedAt: at }],
  });
  return store.objects.put({ ...sampleStep, prev, run, startedAt: at, completedAt: at, edgePrompt: `step ${clock}` });
}

async function record(id: string, head: Address, stepCount: number): Promise<void> {
  const start = addressOfNode(nodes["thread-start/1"]);
  await store.refs.createThread(sampleThreadRecord({ id, start, head, stepCount }));
}

const find = () => findUnrecordedHeads(store, { now: new Date(), host: "here" });

describe("findUnrecordedHeads", () => {
  it("finds a thread's own newest step past its recorded head, and calls its other off-chain steps abandoned", async () => {
    const first = await step(null, T1);
    const second = await step(first, T1);
    const killed = await step(first, T1); // written, never recorded; the thread stepped on without it
    const third = await step(second, T1);
    await record(T1, second, 2); // a ref store older than the third step
    const found = await find();
    expect(found.heads).toMatchObject([{ address: third, thread: T1, behind: { id: T1 }, steps: 3, unrecorded: 1 }]);
    expect(found.abandoned).toEqual([{ address: killed, thread: T1, reason: "superseded" }]);
  });

  it("takes a record whose head an anonymous tip's chain holds for behind, the deepest one first", async () => {
    const first = await step(null, null);
    const second = await step(first, null);
    const tip = await step(second, null);
    await record(T1, first, 1);
    await record(T2, second, 2);
    const found = await find();
    expect(found.heads).toMatchObject([{ address: tip, thread: null, behind: { id: T2 }, steps: 3, unrecorded: 1 }]);
  });

  it("finds the interior head of a lost thread a lost fork stepped on from, and each fork's own head", async () => {
    const first = await step(null, T1);
    const second = await step(first, T1);
    const forkStep = await step(second, T2);
    const otherFork = await step(second, T3);
    const found = await find();
    expect(found.heads.map((head) => [head.thread, head.address, head.steps]).sort()).toEqual(
      [
        [T1, second, 2],
        [T2, forkStep, 3],
        [T3, otherFork, 3],
      ].sort(),
    );
    expect(found.heads.every((head) => head.behind === null)).toBe(true);
  });

  it("leaves out deleted threads, reporting their steps abandoned, and heads a step lease may still record", async () => {
    const first = await step(null, T1);
    const deletedHead = await step(first, T1);
    await record(T1, deletedHead, 2);
    expect(await store.refs.deleteThread(T1, deletedHead, now())).toBe(true);
    const anonymous = await step(null, null);
    const lease = await store.refs.acquireLease(T2, { ttlMs: 60_000, now: new Date(), pid: 1, host: "elsewhere" });
    expect(lease.acquired).toBe(true);
    let found = await find();
    // Every object of a memory store was written just now, since the lease was taken: a step may still record it.
    expect(found.heads).toEqual([]);
    expect(found.inFlight.map((head) => head.address)).toEqual([anonymous]);
    expect(found.abandoned).toEqual([]);
    if (lease.acquired) await store.refs.releaseLease(lease.lease);
    found = await find();
    expect(found.heads).toMatchObject([{ address: anonymous, thread: null, behind: null, steps: 1 }]);
    expect(found.abandoned).toEqual([{ address: deletedHead, thread: T1, reason: "deleted" }]);
  });
});

describe("deriveRecoveredLineage", () => {
  it("names the thread that made the fork point, the oldest holder of a start node, and the step a counterfactual replaced", async () => {
    const first = await step(null, T1);
    const second = await step(first, T1);
    const fork = await step(first, T2);
    const counterfactual = await step(first, T3, { manual: true });
    const ofStart = await step(null, sampleThreadId(4));
    const scan = await scanThreadNodes(store);
    const threads = [T1, T2, T3].map((id, index) => ({
      id,
      chain: chainOf(scan, [second, fork, counterfactual][index] as Address),
    }));
    const lineage = (index: number) =>
      deriveRecoveredLineage({ thread: threads[index] as (typeof threads)[number], scan, threads });
    expect(lineage(0)).toEqual({ forkedFrom: null, ownFrom: 1 });
    expect(lineage(1)).toEqual({ forkedFrom: { thread: T1, step: 1, address: first, replaced: false }, ownFrom: 2 });
    expect(lineage(2)).toEqual({ forkedFrom: { thread: T1, step: 2, address: second, replaced: true }, ownFrom: 2 });
    const startFork = { id: sampleThreadId(4), chain: chainOf(scan, ofStart) };
    expect(deriveRecoveredLineage({ thread: startFork, scan, threads })).toEqual({
      forkedFrom: { thread: T1, step: 0, address: threads[0]?.chain[0] as Address, replaced: false },
      ownFrom: 1,
    });
  });
});
