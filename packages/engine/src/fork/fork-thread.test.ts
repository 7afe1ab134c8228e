import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { type ForkOrigin, outputNodeSchema, threadStepNodeSchema } from "@uwf/protocol";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import { buildFamilyTree, forkThread, forkThreads, NodeNotOnThreadError, readChain, stepUntilDone } from "../index.ts";

let kit: EngineTestKit;
beforeEach(() => {
  kit = createEngineTestKit();
});
afterEach(() => kit.cleanup());

function origin(thread: string, step: number, address: string, replaced = false): ForkOrigin {
  return { thread, step, address, replaced };
}

describe("forkThread", () => {
  it("makes a new thread at a middle step that shares the chain up to it and names its lineage", async () => {
    const original = await kit.finishedThread();
    const fork = await forkThread({ store: kit.store, address: original.planner, now: kit.now, newId: kit.newId });
    expect(fork.id).not.toBe(original.record.id);
    expect(fork).toMatchObject({
      head: original.planner,
      start: original.record.start,
      status: "active",
      next: "doer",
    });
    expect(fork.stepCount).toBe(1);
    expect(fork.forkedFrom).toEqual(origin(original.record.id, 1, original.planner));
    expect(await kit.store.refs.getThread(fork.id)).toEqual(fork);

    // Stepping the fork appends to it alone: the original keeps its own head.
    const done = await stepUntilDone({ ...kit.stepOptions(fork.id), maxSteps: Number.POSITIVE_INFINITY });
    expect(done.record).toMatchObject({ status: "ended", stepCount: 2 });
    expect(done.steps[0]?.address).not.toBe(original.doer);
    expect(await kit.stepAddresses(done.record)).toEqual([original.planner, done.steps[0]?.address ?? ""]);
    expect(await kit.store.refs.getThread(original.record.id)).toEqual(original.record);
  });

  it("names the thread that recorded the node for a fork of a fork's head, and draws them in one family tree", async () => {
    const original = await kit.finishedThread();
    const child = await forkThread({ store: kit.store, address: original.planner, now: kit.now, newId: kit.newId });
    const grandchild = await forkThread({
      store: kit.store,
      address: child.head,
      parent: child,
      now: kit.now,
      newId: kit.newId,
    });
    // The child only holds the planner step as its head: the original recorded it.
    expect(grandchild.forkedFrom).toEqual(origin(original.record.id, 1, original.planner));
    const tree = await buildFamilyTree(kit.store, child);
    expect(JSON.stringify(tree)).toContain(original.record.id);
    expect(JSON.stringify(tree)).toContain(grandchild.id);
  });

  it("marks a counterfactual fork with the step whose reply it replaced, and records the replacement as that step", async () => {
    const original = await kit.finishedThread();
    const fork = await forkThread({
      store: kit.store,
      address: original.doer,
      parent: original.record,
      replacementReply: { text: "---\ndone: false\n---\nWhat if it had failed?\n", file: "reply.md" },
      now: kit.now,
      newId: kit.newId,
    });
    expect(fork.forkedFrom).toEqual(origin(original.record.id, 2, original.doer, true));
    expect(fork.head).not.toBe(original.doer);
    expect(fork).toMatchObject({ status: "ended", stepCount: 2 });
    const step = threadStepNodeSchema.parse(await kit.store.objects.get(fork.head));
    expect(step).toMatchObject({ prev: original.planner, role: "doer" });
    expect(outputNodeSchema.parse(await kit.store.objects.get(step.output)).fields).toEqual({ done: false });
    expect(await kit.textOf(step.body)).toBe("What if it had failed?");
    expect(await kit.runNode(step.run)).toMatchObject({ agent: "manual", extraction: "manual", outcome: "ok" });
  });

  it("refuses a replacement reply that does not match the role's schema, and writes no thread", async () => {
    const original = await kit.finishedThread();
    const refused = forkThread({
      store: kit.store,
      address: original.doer,
      replacementReply: { text: "---\nplan: nothing\n---\nNo.\n", file: "bad.md" },
      now: kit.now,
      newId: kit.newId,
    });
    expect(await refused.catch((error: unknown) => error)).toMatchObject({
      code: "invalid-reply",
      data: { file: "bad.md" },
    });
    expect((await kit.store.refs.listThreads({})).threads.map((thread) => thread.id)).toEqual([original.record.id]);
  });

  it("refuses a parent whose chain does not hold the node", async () => {
    const original = await kit.finishedThread();
    const other = await kit.startThread({ prompt: "Another task" });
    const refused = forkThread({
      store: kit.store,
      address: original.planner,
      parent: other,
      now: kit.now,
      newId: kit.newId,
    });
    await expect(refused).rejects.toThrow(NodeNotOnThreadError);
  });
});

describe("forkThreads (fork --count N)", () => {
  it("makes N forks at one node, each its own thread with the same lineage, in batches", async () => {
    const original = await kit.finishedThread();
    const forks = await forkThreads({
      store: kit.store,
      address: original.planner,
      forks: [null, null, null, null, null],
      batchSize: 2,
      now: kit.now,
      newId: kit.newId,
    });
    expect(forks).toHaveLength(5);
    expect(new Set(forks.map((fork) => fork.id)).size).toBe(5);
    for (const fork of forks) {
      expect(fork.forkedFrom).toEqual(origin(original.record.id, 1, original.planner));
      expect(await kit.store.refs.getThread(fork.id)).toEqual(fork);
      expect((await readChain(kit.store, fork.head)).steps.map((step) => step.address)).toEqual([original.planner]);
    }
  });

  it("stops between batches once its signal aborts, returning the forks made so far", async () => {
    const original = await kit.finishedThread();
    const controller = new AbortController();
    const createThreads = kit.store.refs.createThreads.bind(kit.store.refs);
    // Ctrl-C while the first batch is written.
    kit.store.refs.createThreads = async (records) => {
      await createThreads(records);
      controller.abort();
    };
    const forks = await forkThreads({
      store: kit.store,
      address: original.planner,
      forks: [null, null, null, null],
      batchSize: 2,
      signal: controller.signal,
      now: kit.now,
      newId: kit.newId,
    });
    expect(forks).toHaveLength(2);
    expect((await kit.store.refs.listThreads({})).threads).toHaveLength(3);
    expect(forks).toHaveLength(2);
  });
});
