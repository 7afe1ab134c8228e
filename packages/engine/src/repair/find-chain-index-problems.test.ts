import { describe, expect, it } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ChainIndexStep, createMemoryStore, openFileStore } from "@uwf/cas";
import { sampleThreadId, writeSampleThread } from "@uwf/cas/test";
import type { AgentRunNode, OutputNode, ThreadStepNode } from "@uwf/protocol";
import { chainStepDetailsOf } from "../history/chain-step-details-of.ts";
import { findChainIndexProblems } from "./find-chain-index-problems.ts";

const THREAD = sampleThreadId(1);
const OTHER_THREAD = sampleThreadId(2);

/** A three-step thread and a one-step one, each with its correct index; returns what a test needs to damage them. */
async function storeWithIndexedThreads() {
  const store = createMemoryStore();
  const thread = await writeSampleThread(store, THREAD, 3);
  const other = await writeSampleThread(store, OTHER_THREAD, 1);
  await store.refs.rememberChainIndex(THREAD, { start: thread.record.start, steps: thread.steps });
  await store.refs.rememberChainIndex(OTHER_THREAD, { start: other.record.start, steps: other.steps });
  const [first, second, third] = thread.steps as [ChainIndexStep, ChainIndexStep, ChainIndexStep];
  const indexThread = (steps: ChainIndexStep[], start = thread.record.start) =>
    store.refs.rememberChainIndex(THREAD, { start, steps });
  return { store, thread, other, first, second, third, indexThread };
}

describe("findChainIndexProblems", () => {
  it("finds nothing when every index names its chain, including a stale one that ends before the head", async () => {
    const { store, first, second, indexThread } = await storeWithIndexedThreads();
    expect(await findChainIndexProblems(store)).toEqual([]);
    await indexThread([first, second]);
    expect(await findChainIndexProblems(store)).toEqual([]);
  });

  it("reports a step whose role the index has wrong, naming the thread and the step", async () => {
    const { store, first, second, third, indexThread } = await storeWithIndexedThreads();
    await indexThread([first, { ...second, role: "reviewer" }, third]);
    expect(await findChainIndexProblems(store)).toEqual([
      {
        threadId: THREAD,
        address: second.address,
        message: `thread ${THREAD}'s chain index says step 2 is ${second.address} with role "reviewer", but that step ran role "writer"`,
      },
    ]);
  });

  it("reports steps out of order, skipped, from another thread, missing, or not steps at all", async () => {
    const { store, thread, other, first, second, third, indexThread } = await storeWithIndexedThreads();
    const otherStep = other.steps[0] as ChainIndexStep;
    const cases: [ChainIndexStep[], string, string][] = [
      [
        [first, third, second],
        third.address,
        `says step 2 is ${third.address}, which is not the step after ${first.address}`,
      ],
      [[second, third], second.address, `says step 1 is ${second.address}, which is not the first step`],
      [
        [otherStep],
        otherStep.address,
        `says step 1 is ${otherStep.address}, which belongs to the thread started by ${other.record.start}, not ${thread.record.start}`,
      ],
      [
        [first, { address: "0000000000000", role: "writer" }],
        "0000000000000",
        "says step 2 is 0000000000000, which is not in the store",
      ],
      [
        [first, { address: thread.record.start, role: "writer" }],
        thread.record.start,
        `says step 2 is ${thread.record.start}, which is a thread-start/1 node`,
      ],
    ];
    for (const [steps, address, message] of cases) {
      await indexThread(steps);
      const problems = await findChainIndexProblems(store);
      expect(problems.map((problem) => problem.address)).toEqual([address]);
      expect(problems[0]?.message).toBe(`thread ${THREAD}'s chain index ${message}`);
    }
  });

  it("lists the damaged indexes of several threads in thread order", async () => {
    const { store, other, first, indexThread } = await storeWithIndexedThreads();
    await indexThread([{ ...first, role: "x" }]);
    await store.refs.rememberChainIndex(OTHER_THREAD, { start: other.record.start, steps: [{ ...first }] });
    expect((await findChainIndexProblems(store)).map((problem) => problem.threadId)).toEqual([THREAD, OTHER_THREAD]);
  });

  it("checks each step's details against its node, agent run and output, and finds nothing when they agree", async () => {
    const { store, first, second, third, indexThread } = await storeWithIndexedThreads();
    const detailed = async (step: ChainIndexStep): Promise<ChainIndexStep> => {
      const node = (await store.objects.get(step.address)) as ThreadStepNode;
      const run = (await store.objects.get(node.run)) as AgentRunNode;
      const output = (await store.objects.get(node.output)) as OutputNode;
      return { ...step, details: chainStepDetailsOf(node, run, output.fields) };
    };
    const [one, two, three] = [await detailed(first), await detailed(second), await detailed(third)];
    const details = two.details as NonNullable<ChainIndexStep["details"]>;
    const says = `thread ${THREAD}'s chain index says step 2 is ${second.address}`;
    await indexThread([one, two, { ...third }]);
    expect(await findChainIndexProblems(store)).toEqual([]);
    const cases: [NonNullable<ChainIndexStep["details"]>, string][] = [
      // The sample outputs have no $status.
      [{ ...details, status: "approved" }, `with status "approved" in its details, but that step's status is null`],
      [{ ...details, agent: "other" }, `with agent "other" in its details, but that step's agent is "claude"`],
      [
        { ...details, usage: null },
        `with usage null in its details, but that step's usage is ${JSON.stringify(details.usage)}`,
      ],
      [
        { ...details, startedAt: "2020-01-01T00:00:00.000Z" },
        `with startedAt "2020-01-01T00:00:00.000Z" in its details, but that step's startedAt is "${details.startedAt}"`,
      ],
      [
        { ...details, output: first.address },
        `with output "${first.address}" in its details, but that step's output is "${details.output}"`,
      ],
    ];
    for (const [wrong, message] of cases) {
      await indexThread([one, { ...two, details: wrong }, three]);
      expect(await findChainIndexProblems(store)).toEqual([
        { threadId: THREAD, address: second.address, message: `${says} ${message}` },
      ]);
    }
  });

  it("reports a step whose stored bytes are corrupt", async () => {
    const home = mkdtempSync(join(tmpdir(), "uwf-engine-"));
    const store = await openFileStore(home);
    try {
      const thread = await writeSampleThread(store, THREAD, 2);
      await store.refs.rememberChainIndex(THREAD, { start: thread.record.start, steps: thread.steps });
      const first = thread.steps[0] as ChainIndexStep;
      const file = join(home, "objects", first.address.slice(0, 2), `${first.address.slice(2)}.json`);
      const bytes = readFileSync(file);
      writeFileSync(file, bytes.subarray(0, bytes.length - 1));
      const problems = await findChainIndexProblems(store);
      expect(problems.map((problem) => problem.message)).toEqual([
        `thread ${THREAD}'s chain index says step 1 is ${first.address}, which is corrupt`,
      ]);
    } finally {
      await store.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
