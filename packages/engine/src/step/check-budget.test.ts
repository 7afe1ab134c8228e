import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import {
  BudgetExceededError,
  forkThread,
  ResumeMismatchError,
  resumeThread,
  stepThread,
  stepUntilDone,
  ThreadSuspendedError,
} from "../index.ts";

let kit: EngineTestKit;
beforeEach(() => {
  kit = createEngineTestKit();
});
afterEach(() => kit.cleanup());

/** Counts the objects written through the store from now on. */
function countWrites(): { count(): number } {
  let written = 0;
  const putMany = kit.store.objects.putMany.bind(kit.store.objects);
  const put = kit.store.objects.put.bind(kit.store.objects);
  kit.store.objects.putMany = (nodes, options) => {
    written += nodes.length;
    return putMany(nodes, options);
  };
  kit.store.objects.put = (node, options) => {
    written += 1;
    return put(node, options);
  };
  return { count: () => written };
}

describe("a step's budget", () => {
  it("suspends the thread at its step limit instead of running the step: no agent starts, no node is written", async () => {
    const record = await kit.startThread({ limits: { maxSteps: 1 } });
    const first = await stepThread(kit.stepOptions(record.id));
    expect(first.kind).toBe("stepped");

    const writes = countWrites();
    let started = 0;
    const stopped = await stepThread(
      kit.stepOptions(record.id, {
        onStarted: async () => {
          started += 1;
        },
      }),
    );
    expect(stopped.kind).toBe("suspended");
    expect(started).toBe(0);
    expect(writes.count()).toBe(0);
    expect(stopped.record).toMatchObject({
      status: "suspended",
      reason: "budget",
      head: first.record.head,
      next: "doer",
      stepCount: 1,
      budget: { maxSteps: 1, maxTokens: null, maxCostUsd: null, exceeded: "maxSteps" },
    });
    expect(await kit.store.refs.getThread(record.id)).toEqual(stopped.record);

    // A suspended thread is refused as such by a plain step.
    await expect(stepThread(kit.stepOptions(record.id))).rejects.toThrow(ThreadSuspendedError);
  });

  it("refuses a resume that raises no limit, or answers instead, and goes on with a raised one", async () => {
    const record = await kit.startThread({ limits: { maxSteps: 1 } });
    await stepThread(kit.stepOptions(record.id));
    const suspended = await stepThread(kit.stepOptions(record.id));
    expect(suspended.kind).toBe("suspended");

    const refused = await resumeThread({ ...kit.stepOptions(record.id), limits: { maxSteps: 1 } }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(BudgetExceededError);
    expect((refused as BudgetExceededError).data).toMatchObject({ thread: record.id, limit: "maxSteps", value: 1 });
    await expect(resumeThread({ ...kit.stepOptions(record.id), answer: "go on" })).rejects.toThrow(ResumeMismatchError);
    expect(await kit.store.refs.getThread(record.id)).toEqual(suspended.record);

    const resumed = await resumeThread({ ...kit.stepOptions(record.id), limits: { maxSteps: 2 } });
    expect(resumed.kind).toBe("stepped");
    expect(resumed.record).toMatchObject({ status: "ended", stepCount: 2, budget: { maxSteps: 2, exceeded: null } });
  });

  it("stops stepUntilDone at the limit with the thread suspended, not failed", async () => {
    const record = await kit.startThread({ limits: { maxSteps: 1 } });
    const done = await stepUntilDone({ ...kit.stepOptions(record.id), maxSteps: Number.POSITIVE_INFINITY });
    expect(done.error).toBeUndefined();
    expect(done.steps.map((step) => step.role)).toEqual(["planner"]);
    expect(done.record).toMatchObject({ status: "suspended", reason: "budget" });
  });

  it("gives a fork its parent's limits and counts its steps from the fork point", async () => {
    const parent = await kit.startThread({ limits: { maxSteps: 1 } });
    const first = await stepThread(kit.stepOptions(parent.id));
    const fork = await forkThread({ store: kit.store, address: parent.start, now: kit.now, newId: kit.newId });
    expect(fork.budget).toMatchObject({ maxSteps: 1, exceeded: null });
    // The fork is at step 0: its one step is within its limit, the next is not.
    expect((await stepThread(kit.stepOptions(fork.id))).kind).toBe("stepped");
    expect((await stepThread(kit.stepOptions(fork.id))).kind).toBe("suspended");
    expect((await kit.store.refs.getThread(parent.id))?.head).toBe(first.record.head);
  });
});
