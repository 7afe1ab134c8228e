import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import type { Store } from "@uwf/cas";
import { nodeKind, type ThreadRecord } from "@uwf/protocol";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import { type DiffTarget, diffChains, findChainIndexProblems, forkThreads, stepUntilDone } from "../index.ts";

let kit: EngineTestKit;
beforeEach(() => {
  kit = createEngineTestKit();
});
afterEach(() => kit.cleanup());

const thread = (record: ThreadRecord): DiffTarget => ({ head: record.head, thread: record });
const step = (address: string): DiffTarget => ({ head: address, thread: null });

/** A thread stepped to its end by the scripted agent. */
async function stepToEnd(record: ThreadRecord): Promise<ThreadRecord> {
  const done = await stepUntilDone({ ...kit.stepOptions(record.id), maxSteps: Number.POSITIVE_INFINITY });
  if (done.error !== undefined) throw done.error;
  return done.record;
}

/**
 * The scripted thread run to its end, a plain fork of its planner step stepped to its end, and a
 * counterfactual fork of its doer step whose replaced reply is `reply`.
 */
async function twoForks(reply: string) {
  const original = await kit.finishedThread();
  const [plain] = await forkThreads({
    store: kit.store,
    address: original.planner,
    forks: [null],
    now: kit.now,
    newId: kit.newId,
  });
  if (plain === undefined) throw new Error("expected a fork");
  const plainDone = await stepToEnd(plain);
  const gaveUp = await kit.fork(original.doer, { replacementReply: { text: reply, file: "gave-up.md" } });
  return { original, plainDone, gaveUp };
}

function countsOf(kinds: readonly (string | null)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of kinds) counts[String(kind)] = (counts[String(kind)] ?? 0) + 1;
  return counts;
}

describe("diffChains", () => {
  it("pairs a counterfactual fork's replaced step first, with the fields that differ and the bodies' diff", async () => {
    const original = await kit.finishedThread();
    const fork = await kit.fork(original.planner, {
      replacementReply: { text: "---\nplan: write bye.txt\n---\nI will write bye.txt instead.\n", file: "reply.md" },
    });
    const forkDone = await stepToEnd(fork);

    const result = await diffChains(kit.store, thread(original.record), thread(forkDone), { bodies: true });
    expect(result.sameStart).toBe(true);
    expect(result.commonSteps).toBe(0);
    expect(result.commonAddress).toBe(original.record.start);
    const [first, second] = result.steps;
    expect(first?.number).toBe(1);
    expect(first?.left).toMatchObject({ address: original.planner, role: "planner" });
    expect(first?.right).toMatchObject({ address: fork.head, role: "planner", agent: "manual" });
    expect(first?.fields).toEqual([
      { field: "plan", change: "changed", left: "write hello.txt", right: "write bye.txt" },
    ]);
    expect(first?.bodyDiff).toContain("-I will write hello.txt.");
    expect(first?.bodyDiff).toContain("+I will write bye.txt instead.");
    // The doers reply the same fields (the scripted agent's): only their addresses differ.
    expect(second?.number).toBe(2);
    expect(second?.fields).toEqual([]);
    expect(second?.bodyDiff).toBe("");
    expect(result.totals.left).toMatchObject({ steps: 2, status: "ended" });
    expect(result.totals.right).toMatchObject({ steps: 2, status: "ended" });

    // Without `bodies`, no body is read or diffed.
    const plain = await diffChains(kit.store, thread(original.record), thread(forkDone));
    expect(plain.steps[0]).not.toHaveProperty("bodyDiff");
  });

  it("finds the common prefix of two forks of a middle step and pairs the steps after it by number", async () => {
    const { original, plainDone, gaveUp } = await twoForks("---\ndone: false\n---\nGave up.\n");

    const result = await diffChains(kit.store, thread(plainDone), thread(gaveUp));
    expect(result.sameStart).toBe(true);
    expect(result.commonSteps).toBe(1);
    expect(result.commonAddress).toBe(original.planner);
    expect(result.steps.map((paired) => [paired.number, paired.left?.role, paired.right?.role])).toEqual([
      [2, "doer", "doer"],
    ]);
    expect(result.steps[0]?.left?.address).toBe(plainDone.head);
    expect(result.steps[0]?.right).toMatchObject({ address: gaveUp.head, agent: "manual" });
    expect(result.steps[0]?.fields).toEqual([{ field: "done", change: "changed", left: true, right: false }]);
    expect(result.totals.left).toMatchObject({ steps: 2, status: "ended" });
    expect(result.totals.right).toMatchObject({ steps: 2, status: "ended" });
  });

  it("compares a thread with its own ancestor step: only the later steps, on one side", async () => {
    const original = await kit.finishedThread();
    const result = await diffChains(kit.store, thread(original.record), step(original.planner));
    expect(result.left.thread).toBe(original.record.id);
    expect(result.right).toMatchObject({ thread: null, head: original.planner });
    expect(result.commonSteps).toBe(1);
    expect(result.commonAddress).toBe(original.planner);
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]).toMatchObject({ number: 2, right: null, fields: [{ field: "done", change: "removed" }] });
    expect(result.steps[0]?.left?.address).toBe(original.doer);
    expect(result.totals.right).toMatchObject({ steps: 1, status: null });
  });

  it("compares threads of different start nodes from step 1, sharing nothing", async () => {
    const one = await kit.finishedThread("One task");
    const other = await kit.finishedThread("Another task");
    const result = await diffChains(kit.store, thread(one.record), thread(other.record));
    expect(result.sameStart).toBe(false);
    expect(result.commonSteps).toBe(0);
    expect(result.commonAddress).toBeNull();
    expect(result.steps.map((paired) => [paired.number, paired.left?.role, paired.right?.role])).toEqual([
      [1, "planner", "planner"],
      [2, "doer", "doer"],
    ]);
  });

  it("reads what the threads' chain indexes keep of each step, and the same diff from the nodes where they keep none", async () => {
    const { original, plainDone, gaveUp } = await twoForks("---\ndone: false\n$status: stuck\n---\nGave up.\n");
    // Every step committed keeps its details, and the fork took its parent's for the step they share.
    for (const record of [original.record, plainDone]) {
      const index = await kit.store.refs.recallChainIndex(record.id, { details: true });
      expect(index?.steps.map((indexed) => indexed.details?.agent)).toEqual(["scripted", "scripted"]);
    }
    expect(await findChainIndexProblems(kit.store)).toEqual([]);

    const reads: string[] = [];
    const objects = kit.store.objects;
    const counting: Store = {
      ...kit.store,
      objects: {
        ...objects,
        get: (address) => {
          reads.push(address);
          return objects.get(address);
        },
      },
    };
    const pairs: [DiffTarget, DiffTarget][] = [
      [thread(original.record), thread(plainDone)],
      [thread(plainDone), thread(gaveUp)],
      [thread(gaveUp), thread(original.record)],
      [thread(original.record), step(original.planner)],
    ];
    const kindsRead = async () => {
      const kinds = await Promise.all(reads.map(async (address) => nodeKind(await objects.get(address))));
      reads.length = 0;
      return kinds.sort();
    };
    const withDetails = [];
    for (const [left, right] of pairs) withDetails.push(await diffChains(counting, left, right, { bodies: true }));
    // Of each diff, each side's head and start node, the steps' bodies (`--bodies`), and the outputs of the
    // steps whose outputs differ (in the first diff the doers' are one node): no agent run, no other step node.
    expect(countsOf(await kindsRead())).toEqual({
      "output/1": 0 + 2 + 2 + 1,
      "text/1": 2 + 2 + 2 + 1,
      "thread-start/1": 8,
      "thread-step/1": 8,
    });

    for (const record of [original.record, plainDone, gaveUp]) {
      const index = await kit.store.refs.recallChainIndex(record.id);
      if (index !== null) await kit.store.refs.rememberChainIndex(record.id, index);
    }
    const fromNodes = [];
    for (const [left, right] of pairs) fromNodes.push(await diffChains(counting, left, right, { bodies: true }));
    // From the nodes: the runs of the steps compared, and of the common step for the totals.
    expect(countsOf(await kindsRead())["agent-run/1"]).toBe(3 + 3 + 3 + 2);
    // Alike to the order of each object's keys, as `--json` prints them.
    expect(JSON.stringify(fromNodes)).toBe(JSON.stringify(withDetails));
    expect(withDetails[1]?.steps[0]?.right).toMatchObject({ status: "stuck" });
    expect(withDetails[1]?.totals.right).toMatchObject({ lastStatus: "stuck" });
  });

  it("finds nothing to compare between a thread and its own head", async () => {
    const original = await kit.finishedThread();
    const same = await diffChains(kit.store, thread(original.record), step(original.doer));
    expect(same.steps).toEqual([]);
    expect(same.commonSteps).toBe(2);
    expect(same.commonAddress).toBe(original.doer);
  });
});
