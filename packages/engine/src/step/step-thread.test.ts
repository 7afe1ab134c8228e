import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import { findForkParent } from "../fork/find-fork-parent.ts";
import { AgentFailedError, forkThread, stepThread, stepUntilDone } from "../index.ts";

let kit: EngineTestKit;
let store: EngineTestKit["store"];
beforeEach(() => {
  // `failing` is an agent that exits 3.
  kit = createEngineTestKit({
    config: { agents: { failing: { command: "sh", args: ["-c", "cat >/dev/null; exit 3"] } } },
  });
  store = kit.store;
});
afterEach(() => kit.cleanup());

/** A thread of the linear workflow, and what a step of it needs. */
async function linearThread() {
  const record = await kit.startThread();
  return { record, step: kit.stepOptions(record.id) };
}

describe("stepThread", () => {
  it("sets the thread failed with the run when its step fails, and a later step that succeeds makes it active", async () => {
    const { record, step } = await linearThread();
    const failed = stepThread({ ...step, defaultAgent: "failing" });
    await expect(failed).rejects.toThrow(AgentFailedError);
    const error = (await failed.catch((thrown: unknown) => thrown)) as AgentFailedError;
    const stored = await store.refs.getThread(record.id);
    expect(stored).toMatchObject({
      status: "failed",
      head: record.head,
      next: "planner",
      failure: { code: "agent-failed", run: error.data.run, attempts: 1 },
    });

    await expect(stepThread({ ...step, defaultAgent: "failing" })).rejects.toThrow(AgentFailedError);
    expect((await store.refs.getThread(record.id))?.failure?.attempts).toBe(2);

    const retried = await stepThread(step);
    expect(retried.record).toMatchObject({ status: "active", next: "doer", stepCount: 1 });
    expect(retried.record).not.toHaveProperty("failure");
    expect(await store.refs.getThread(record.id)).not.toHaveProperty("failure");
  });

  it("records the outcome of the step that ends the thread, and a default step limit of 100", async () => {
    const { record, step } = await linearThread();
    expect(record.budget).toEqual({ maxSteps: 100, maxTokens: null, maxCostUsd: null, exceeded: null });
    const done = await stepUntilDone({ ...step, maxSteps: Number.POSITIVE_INFINITY });
    expect(done.record).toMatchObject({
      status: "ended",
      outcome: { role: "doer", status: null, edge: { index: 0, condition: null, key: null } },
    });
    expect((await store.refs.getThread(record.id))?.outcome).toEqual(done.record.outcome);
    // A fork at the ended head ends as its parent did.
    const fork = await forkThread({ store, address: done.record.head, now: kit.now, newId: kit.newId });
    expect(fork).toMatchObject({ status: "ended", outcome: done.record.outcome });
  });
});

describe("findForkParent", () => {
  it("names the thread that recorded the node, never a fork that only holds it as its head", async () => {
    const { record, step } = await linearThread();
    const { steps } = await stepUntilDone({ ...step, maxSteps: Number.POSITIVE_INFINITY });
    const planner = steps[0]?.address ?? "";
    const { now, newId } = kit;
    const first = await forkThread({ store, address: planner, now, newId });
    const second = await forkThread({ store, address: planner, now, newId });
    const ofFirst = await forkThread({ store, address: first.head, parent: first, now, newId });
    for (const fork of [first, second, ofFirst]) expect(fork.forkedFrom?.thread).toBe(record.id);
    expect((await findForkParent(store, { address: planner, step: 1, start: record.start }))?.id).toBe(record.id);
  });
});
