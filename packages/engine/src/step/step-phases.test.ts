import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { END, outputNodeSchema, threadStepNodeSchema } from "@uwf/protocol";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import { AgentFailedError, readChain, type StepStart, stepThread, ThreadEndedError } from "../index.ts";

let kit: EngineTestKit;
beforeEach(() => {
  kit = createEngineTestKit();
});
afterEach(() => kit.cleanup());

describe("a step's phases (choose role → run agent → validate reply → route → commit)", () => {
  it("runs them in order, under the thread's lease", async () => {
    const record = await kit.startThread();
    const phases: string[] = [];
    await stepThread(kit.stepOptions(record.id, { trace: (phase) => phases.push(phase) }));
    expect(phases).toEqual([
      "lease taken",
      "chain read",
      "next role chosen",
      "prompt built",
      "store checked",
      "agent done, reply checked and routed",
      "nodes written",
      "head moved",
      "chain index kept",
    ]);
  });

  it("chooses the role the moderator routes to, starts its agent, and commits a step node on the previous head", async () => {
    const record = await kit.startThread();
    const started: StepStart[] = [];
    const first = await stepThread(
      kit.stepOptions(record.id, {
        onStarted: async (start) => {
          started.push(start);
        },
      }),
    );
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ number: 1, role: "planner" });
    if (first.kind !== "stepped") throw new Error(`expected a step, got ${first.kind}`);
    expect(first.step).toMatchObject({ role: "planner", output: { plan: "write hello.txt" } });
    expect(first.record).toMatchObject({ status: "active", next: "doer", stepCount: 1, head: first.step.address });

    const node = threadStepNodeSchema.parse(await kit.store.objects.get(first.step.address));
    expect(node).toMatchObject({ start: record.start, prev: null, role: "planner", edgePrompt: "Plan the task." });
    expect(outputNodeSchema.parse(await kit.store.objects.get(node.output)).fields).toEqual({
      plan: "write hello.txt",
    });
    expect(await kit.textOf(node.body)).toBe("I will write hello.txt.");
    expect(await kit.runNode(node.run)).toMatchObject({ outcome: "ok", extraction: "frontmatter", thread: record.id });

    // The next step's node links to this one, and its edge prompt is rendered from this step's output.
    const second = await stepThread(kit.stepOptions(record.id));
    if (second.kind !== "stepped") throw new Error(`expected a step, got ${second.kind}`);
    const next = threadStepNodeSchema.parse(await kit.store.objects.get(second.step.address));
    expect(next).toMatchObject({
      prev: first.step.address,
      role: "doer",
      edgePrompt: "Carry out this plan: write hello.txt",
    });
    expect((await readChain(kit.store, second.record.head)).steps.map((step) => step.address)).toEqual([
      first.step.address,
      second.step.address,
    ]);
  });

  it("ends the thread in the same commit as the reply that routes to $END; the next step is refused and changes nothing", async () => {
    const { record } = await kit.finishedThread();
    expect(record).toMatchObject({ status: "ended", next: END, stepCount: 2 });
    expect(await kit.store.refs.getThread(record.id)).toEqual(record);
    await expect(stepThread(kit.stepOptions(record.id))).rejects.toThrow(ThreadEndedError);
    expect(await kit.store.refs.getThread(record.id)).toEqual(record);
  });

  it("fails a step whose agent answers for another role than the one routed to, keeping the head", async () => {
    const record = await kit.startThread();
    const wrongRole = kit.scriptedAgent([{ role: "doer", output: { done: true }, body: "Done." }]);
    const failed = await stepThread(kit.stepOptions(record.id, { defaultAgent: wrongRole })).catch(
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(AgentFailedError);
    expect((failed as AgentFailedError).message).toContain("expects role doer but the moderator chose planner");
    const after = await kit.store.refs.getThread(record.id);
    expect(after).toMatchObject({ head: record.head, stepCount: 0, next: "planner", status: "failed" });
  });
});
