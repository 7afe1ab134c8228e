import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import { HeadConflictError, readChain, stepThread, ThreadBusyError } from "../index.ts";

let kit: EngineTestKit;
beforeEach(() => {
  kit = createEngineTestKit();
});
afterEach(() => kit.cleanup());

describe("commitStep", () => {
  it("moves the head by compare-and-swap from the head the step read", async () => {
    const record = await kit.startThread();
    const swaps: { threadId: string; expectedHead: string; head: unknown }[] = [];
    const updateThread = kit.store.refs.updateThread.bind(kit.store.refs);
    kit.store.refs.updateThread = (threadId, expectedHead, update) => {
      swaps.push({ threadId, expectedHead, head: update.head });
      return updateThread(threadId, expectedHead, update);
    };
    const stepped = await stepThread(kit.stepOptions(record.id));
    if (stepped.kind !== "stepped") throw new Error(`expected a step, got ${stepped.kind}`);
    expect(swaps.filter((swap) => swap.head !== undefined)).toEqual([
      { threadId: record.id, expectedHead: record.start, head: stepped.step.address },
    ]);
    expect((await kit.store.refs.getThread(record.id))?.head).toBe(stepped.step.address);
  });

  it("refuses a step whose head another process moved meanwhile, leaving that process's record as it wrote it", async () => {
    const other = await kit.finishedThread("Another task");
    const record = await kit.startThread();
    let moved: Awaited<ReturnType<typeof kit.store.refs.getThread>> = null;
    const step = stepThread(
      kit.stepOptions(record.id, {
        // While the agent runs, someone else moves the head (a stepper that ignored the lease, a restore).
        onStarted: async () => {
          expect(await kit.store.refs.updateThread(record.id, record.head, { head: other.planner })).toBe(true);
          moved = await kit.store.refs.getThread(record.id);
        },
      }),
    );
    const error = await step.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(HeadConflictError);
    expect(moved).not.toBeNull();
    // Nothing of the refused step is in the record: not its head, count, next role, status or a failure.
    expect(await kit.store.refs.getThread(record.id)).toEqual(moved);
    expect(await kit.store.refs.getThread(record.id)).toMatchObject({
      stepCount: 0,
      next: "planner",
      status: "active",
    });
    expect(await kit.store.refs.recallChainIndex(record.id)).toBeNull();
  });

  it("lets one of two concurrent steppers of a thread append, and refuses the other at once", async () => {
    const record = await kit.startThread();
    let second: unknown;
    const first = await stepThread(
      kit.stepOptions(record.id, {
        onStarted: async () => {
          second = await stepThread(kit.stepOptions(record.id)).catch((thrown: unknown) => thrown);
        },
      }),
    );
    expect(second).toBeInstanceOf(ThreadBusyError);
    expect(first.record).toMatchObject({ stepCount: 1, next: "doer" });
    expect((await readChain(kit.store, first.record.head)).steps).toHaveLength(1);
  });
});
