import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ScenarioThread, scenarioDocumentSchema } from "@uwf/protocol";
import { REOPEN_WORKFLOW } from "../../../../test/kit/workflow/reopen-workflow.ts";
import { writeWorkflow } from "../../../../test/kit/workflow/write-workflow.ts";
import { createEngineTestKit, type EngineTestKit, FIXTURES } from "../../test/engine-test-kit.ts";
import { ScenarioNotExportableError } from "../errors/scenario-not-exportable-error.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";
import { loadHistory } from "../history/load-history.ts";
import { readChain } from "../history/read-chain.ts";
import { stepUntilDone } from "../step/step-until-done.ts";
import { exportScenarios } from "./export-scenarios.ts";
import { serializeScenario } from "./serialize-scenario.ts";

let kit: EngineTestKit;
beforeEach(() => {
  kit = createEngineTestKit();
});
afterEach(() => kit.cleanup());

async function runToEnd(threadId: string, agent?: string, answer?: string) {
  const done = await stepUntilDone({
    ...kit.stepOptions(threadId, agent === undefined ? {} : { defaultAgent: agent }),
    maxSteps: Number.POSITIVE_INFINITY,
    ...(answer === undefined ? {} : { resume: { answer } }),
  });
  if (done.error !== undefined) throw done.error;
  return done.record;
}

/** Role, edge prompt, output and body of each step of a thread. */
async function stepsOf(threadId: string) {
  const record = await kit.store.refs.getThread(threadId);
  if (record === null) throw new Error(`no thread ${threadId}`);
  const history = await loadHistory(kit.store.objects, await readChain(kit.store, record.head));
  return history.map(({ role, edgePrompt, output, body }) => ({ role, edgePrompt, output, body }));
}

function only(document: unknown): ScenarioThread {
  const parsed = scenarioDocumentSchema.parse(document);
  if ("threads" in parsed) throw new Error("expected a one-thread document");
  return parsed;
}

describe("exportScenarios", () => {
  it("writes one thread in the scripted agent's own format, which plays it back to the same steps", async () => {
    const { record } = await kit.finishedThread("Say hello");
    const exported = await exportScenarios({ store: kit.store, threads: [record.id.slice(0, 10)] });
    expect(only(exported.document)).toEqual({
      thread: record.id,
      workflow: { name: "linear", address: record.workflowAddress },
      prompt: "Say hello",
      steps: [
        { role: "planner", output: { plan: "write hello.txt" }, body: "I will write hello.txt." },
        { role: "doer", output: { done: true }, body: "Wrote hello.txt." },
      ],
    });

    for (const format of ["json", "yaml"] as const) {
      const file = join(kit.home, `played.${format}`);
      writeFileSync(file, serializeScenario(exported.document, format));
      const replay = await kit.startThread({ prompt: "Say hello" });
      expect(await runToEnd(replay.id, `scripted:${file}`)).toMatchObject({ status: "ended", outcome: record.outcome });
      expect(await stepsOf(replay.id)).toEqual(await stepsOf(record.id));
    }
  });

  it("records the answer that resumed a suspension on the step it led to", async () => {
    const agent = kit.scriptedAgent([
      { role: "planner", output: { $status: "$SUSPEND", reason: "Which file?" }, body: "I ask." },
      { role: "planner", output: { plan: "write a.txt" } },
      { role: "doer", output: { done: true } },
    ]);
    const started = await kit.startThread();
    expect((await runToEnd(started.id, agent)).status).toBe("suspended");
    await runToEnd(started.id, agent, "a.txt, please");
    const { threads } = await exportScenarios({ store: kit.store, threads: [started.id] });
    expect(threads[0]?.steps.map((step) => step.answer ?? null)).toEqual([null, "a.txt, please", null]);
  });

  it("records the prompt that continued an ended thread on the step it led to", async () => {
    const agent = kit.scriptedAgent([
      { role: "worker", output: { result: "one" }, body: "One.\n\nTwo paragraphs." },
      { role: "worker", output: { result: "two" } },
    ]);
    const started = await kit.startThread({ workflow: REOPEN_WORKFLOW });
    expect((await runToEnd(started.id, agent)).status).toBe("ended");
    expect((await runToEnd(started.id, agent, "And then\n\nsome more.")).status).toBe("ended");
    const { threads } = await exportScenarios({ store: kit.store, threads: [started.id] });
    expect(threads[0]?.steps.map((step) => step.answer ?? null)).toEqual([null, "And then\n\nsome more."]);
  });

  it("appends each branch's own steps under its key, after the thread's", async () => {
    const parent = await kit.startThread({ workflow: join(FIXTURES, "review-fan-out.yaml") });
    await runToEnd(parent.id, `scripted:${join(FIXTURES, "review-fan-out.scenario.yaml")}`);
    const { threads } = await exportScenarios({ store: kit.store, threads: [parent.id] });
    expect(threads[0]?.steps.map((step) => [step.role, step.branch ?? null, step.output.verdict ?? null])).toEqual([
      ["planner", null, null],
      ["synthesizer", null, null],
      ["reviewer", "security", "safe"],
      ["reviewer", "speed", "fast"],
      ["reviewer", "style", "tidy"],
    ]);
  });

  it("refuses a thread whose two fan-outs made branches of the same key, which a scenario cannot tell apart", async () => {
    const workflow = writeWorkflow(kit.home, "fan-twice", [
      "roles:",
      "  planner: { goal: Plan., frontmatter: { type: object, properties: { plan: { type: string } } } }",
      "  checker: { goal: Check., frontmatter: { type: object, properties: { $status: { enum: [pass] } } } }",
      "  merger:",
      "    goal: Merge.",
      "    frontmatter: { type: object, properties: { $status: { enum: [again, done] } }, required: [$status] }",
      "graph:",
      "  $START:",
      '    new: { role: planner, prompt: "Plan." }',
      "  planner:",
      "    - parallel:",
      '        only: { role: checker, prompt: "Check." }',
      '      join: { role: merger, policy: all, prompt: "Merge." }',
      "  checker:",
      "    pass: { role: $END }",
      "  merger:",
      '    again: { role: planner, prompt: "Again." }',
      '    done: { role: $END, prompt: "Done." }',
    ]);
    const agent = kit.scriptedAgent([
      { role: "planner", output: { plan: "one" } },
      { role: "merger", output: { $status: "again" } },
      { role: "planner", output: { plan: "two" } },
      { role: "merger", output: { $status: "done" } },
      { role: "checker", branch: "only", output: { $status: "pass" } },
    ]);
    const started = await kit.startThread({ workflow });
    expect((await runToEnd(started.id, agent)).status).toBe("ended");
    const refused = exportScenarios({ store: kit.store, threads: [started.id] });
    await expect(refused).rejects.toThrow(ScenarioNotExportableError);
    await expect(refused).rejects.toThrow('branch key "only" is used by two fan-outs');
  });

  it("writes several threads as `threads:`, a thread and its forks oldest first, each once", async () => {
    const original = await kit.finishedThread();
    const fork = await kit.fork(original.planner, { parent: original.record });
    await runToEnd(fork.id);
    const other = await kit.finishedThread("Something else");
    const exported = await exportScenarios({
      store: kit.store,
      threads: [other.record.id, original.record.id],
      forksOf: original.record.id,
    });
    const document = scenarioDocumentSchema.parse(exported.document);
    expect("threads" in document && document.threads.map((thread) => thread.thread)).toEqual([
      other.record.id,
      original.record.id,
      fork.id,
    ]);
  });

  it("refuses an unknown thread before reading any", async () => {
    const { record } = await kit.finishedThread();
    await expect(exportScenarios({ store: kit.store, threads: [record.id, "01ZZZZ"] })).rejects.toThrow(
      ThreadNotFoundError,
    );
  });
});
