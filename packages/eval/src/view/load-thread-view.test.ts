import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { forkThread, loadStepSummaries, startThread } from "@uwf/engine";
import { evalThreadViewSchema, type ThreadRecord } from "@uwf/protocol";
import { createEvalTestKit, type EvalTestKit, FIXTURES, REVIEW_WORKFLOW } from "../../test/eval-test-kit.ts";
import { loadThreadViews } from "./load-thread-view.ts";

let kit: EvalTestKit;
beforeEach(() => {
  kit = createEvalTestKit();
});
afterEach(() => kit.cleanup());

const TWO_STEPS = [
  { role: "worker", output: { $status: "again", summary: "first try" }, body: "Tried once." },
  { role: "worker", output: { $status: "approved", summary: "done", confidence: 0.9 }, body: "Done it." },
];

describe("loadThreadViews", () => {
  it("gives show's record, the start, log's steps, the final fields, totals and the suite's labels", async () => {
    const record = await kit.runThread(TWO_STEPS, { prompt: "Review PR 7", inputs: { pr: 7 } });
    const [view] = await loadThreadViews(kit.store, [{ record, eval: { case: "pr-7", variant: "v1", repeat: 2 } }], {
      bodies: false,
    });
    if (view === undefined) throw new Error("no view");
    expect(evalThreadViewSchema.parse(view)).toEqual(view);
    expect(view.thread).toBe(record.id);
    expect(view.status).toBe("ended");
    expect(view.outcome?.status).toBe("approved");
    expect(view.start).toEqual({ address: record.start, prompt: "Review PR 7", cwd: FIXTURES });
    expect(view.inputs).toEqual({ pr: 7 });
    // The steps are log's, without bodies.
    expect(view.steps).toEqual(await loadStepSummaries(kit.store, record.head));
    expect(view.steps.map((step) => step.status)).toEqual(["again", "approved"]);
    expect(view.final).toEqual({ $status: "approved", summary: "done", confidence: 0.9 });
    const first = view.steps[0];
    const last = view.steps[1];
    expect(view.totals).toEqual({
      steps: 2,
      tokens: record.usage.inputTokens + record.usage.outputTokens,
      costUsd: record.usage.costUsd,
      durationMs: Date.parse(last?.completedAt ?? "") - Date.parse(first?.startedAt ?? ""),
    });
    expect(view.eval).toEqual({ case: "pr-7", variant: "v1", repeat: 2 });
  });

  it("adds each step's body when asked, and reads a thread named by id", async () => {
    const record = await kit.runThread(TWO_STEPS);
    const [view] = await loadThreadViews(kit.store, [record.id], { bodies: true });
    expect(view?.steps.map((step) => step.body)).toEqual(["Tried once.", "Done it."]);
    expect(view?.eval).toEqual({ case: null, variant: null, repeat: null });
    expect(view?.inputs).toEqual({});
  });

  it("views a thread before its first step with no steps, empty final fields and zero totals", async () => {
    const record = await startThread({
      store: kit.store,
      config: kit.config,
      home: kit.home,
      cwd: FIXTURES,
      now: kit.now,
      newId: kit.newId,
      workflowReference: REVIEW_WORKFLOW,
      prompt: "Not yet",
    });
    const [view] = await loadThreadViews(kit.store, [record], { bodies: true });
    expect(view?.status).toBe("active");
    expect(view?.steps).toEqual([]);
    expect(view?.final).toEqual({});
    expect(view?.totals).toEqual({ steps: 0, tokens: 0, costUsd: 0, durationMs: 0 });
  });

  it("counts a fork's own steps in its totals, and keeps the order of the threads given", async () => {
    const original = await kit.runThread(TWO_STEPS);
    const [firstStep] = (await loadThreadViews(kit.store, [original], { bodies: false }))[0]?.steps ?? [];
    const fork: ThreadRecord = await forkThread({
      store: kit.store,
      address: firstStep?.address as string,
      now: kit.now,
      newId: kit.newId,
    });
    const views = await loadThreadViews(kit.store, [fork, original, fork.id], { bodies: false, concurrency: 2 });
    expect(views.map((view) => view.thread)).toEqual([fork.id, original.id, fork.id]);
    expect(views[0]?.steps).toHaveLength(1);
    expect(views[0]?.totals.steps).toBe(0);
    expect(views[0]?.totals.durationMs).toBe(0);
    expect(views[1]?.totals.steps).toBe(2);
  });

  it("fails on a thread id no thread has", async () => {
    await expect(loadThreadViews(kit.store, ["01ARZ3NDEKTSV4RRFFQ69G5FAV"], { bodies: false })).rejects.toThrow(
      /thread/,
    );
  });
});
