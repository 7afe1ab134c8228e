import { describe, expect, it } from "bun:test";
import { writeSampleThread } from "../test/write-sample-thread.ts";
import { createMemoryStore } from "./create-memory-store.ts";
import { findChainIndexProblems } from "./find-chain-index-problems.ts";
import { sampleThreadId } from "./sample-nodes.ts";
import type { ChainIndexStep } from "./store.ts";

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
        message: `thread ${THREAD}'s chain index says step 2 is ${second.address} with role "reviewer", but that step ran role "writer"; it is derived data: \`uwf cas gc\` drops it, and the thread's next step rebuilds it`,
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
      expect(problems[0]?.message).toStartWith(`thread ${THREAD}'s chain index ${message};`);
    }
  });

  it("lists the damaged indexes of several threads in thread order", async () => {
    const { store, other, first, indexThread } = await storeWithIndexedThreads();
    await indexThread([{ ...first, role: "x" }]);
    await store.refs.rememberChainIndex(OTHER_THREAD, { start: other.record.start, steps: [{ ...first }] });
    expect((await findChainIndexProblems(store)).map((problem) => problem.threadId)).toEqual([THREAD, OTHER_THREAD]);
  });
});
