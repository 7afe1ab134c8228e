import { afterEach, describe, expect, it } from "bun:test";
import { join } from "node:path";
import type { ThreadRecord } from "@uwf/protocol";
import { editedWorkflowCopy } from "../../../../test/kit/workflow/edited-workflow-copy.ts";
import { REOPEN_WORKFLOW } from "../../../../test/kit/workflow/reopen-workflow.ts";
import { createEngineTestKit, type EngineTestKit, FIXTURES } from "../../test/engine-test-kit.ts";
import { stepThread } from "../step/step-thread.ts";
import { stepUntilDone } from "../step/step-until-done.ts";
import { expireDueSuspensions } from "../suspensions/expire-due-suspensions.ts";
import { loadReplayWorkflow } from "./load-replay-workflow.ts";
import { replayThreads } from "./replay-threads.ts";

const REVIEW_LIST = join(FIXTURES, "replay/review-list.yaml");
const TRIAGE_MAP = join(FIXTURES, "replay/triage-map.yaml");
const APPROVAL = join(FIXTURES, "replay/approval.yaml");
const GATE = join(FIXTURES, "replay/gate.yaml");
const scripted = (workflow: string) => `scripted:${workflow.replace(/\.yaml$/, ".scenario.yaml")}`;

let kit: EngineTestKit;
afterEach(() => kit.cleanup());

/** A thread of `workflow` run to its end by its scenario. */
async function finishedThread(workflow: string): Promise<ThreadRecord> {
  const started = await kit.startThread({ workflow, prompt: "The app crashes on start" });
  const done = await stepUntilDone({
    ...kit.stepOptions(started.id, { defaultAgent: scripted(workflow) }),
    maxSteps: Number.POSITIVE_INFINITY,
  });
  if (done.error !== undefined) throw done.error;
  return done.record;
}

/** A copy of `workflow` with each `[from, to]` replaced, in a folder of its own (so it keeps its name). */
function editedCopy(workflow: string, ...edits: Array<[string, string]>): string {
  return editedWorkflowCopy(workflow, kit.home, edits);
}

async function objectCount(): Promise<number> {
  let count = 0;
  for await (const _ of kit.store.objects.list()) count += 1;
  return count;
}

async function replay(record: ThreadRecord, workflow: string) {
  const target = await loadReplayWorkflow({ store: kit.store, reference: workflow, cwd: kit.home, home: kit.home });
  const result = await replayThreads({ store: kit.store, target, threads: [record.id] });
  const [thread] = result.threads;
  if (thread === undefined) throw new Error("no thread replayed");
  return thread;
}

describe("replayThread, ordered transitions with JSONata conditions", () => {
  it("replays a thread through its own workflow identically, writing nothing", async () => {
    kit = createEngineTestKit();
    const record = await finishedThread(REVIEW_LIST);
    const before = await objectCount();
    const thread = await replay(record, REVIEW_LIST);
    expect(thread).toMatchObject({ result: "identical", steps: 4, replayed: 4, divergence: null, notReplayed: null });
    expect(await objectCount()).toBe(before);
  });

  it("names the field a required field added to the schema refuses", async () => {
    kit = createEngineTestKit();
    const record = await finishedThread(REVIEW_LIST);
    const edited = editedCopy(
      REVIEW_LIST,
      ["summary: { type: string }", "summary: { type: string }\n        files: { type: array }"],
      ["required: [summary]", "required: [summary, files]"],
    );
    const thread = await replay(record, edited);
    expect(thread.result).toBe("diverged");
    expect(thread.divergence).toMatchObject({ kind: "reply-refused", step: 1, role: "writer", field: "files" });
    expect(thread.divergence?.address).toBe((await kit.stepAddresses(record))[0] as string);
  });

  it("reports a changed condition as the old and the new role", async () => {
    kit = createEngineTestKit();
    const record = await finishedThread(REVIEW_LIST);
    const edited = editedCopy(REVIEW_LIST, ["approved = false", "approved = true"]);
    const thread = await replay(record, edited);
    expect(thread.divergence).toMatchObject({
      kind: "route-changed",
      step: 2,
      role: "reviewer",
      expected: "writer",
      actual: "$END",
    });
    expect(thread.replayed).toBe(1);
  });

  it("reports a role the new workflow no longer has at the step that played it", async () => {
    kit = createEngineTestKit();
    const record = await finishedThread(REVIEW_LIST);
    const edited = editedCopy(
      REVIEW_LIST,
      ["  reviewer:\n    goal: Review the change.", "  critic:\n    goal: Review the change."],
      ["{ role: reviewer,", "{ role: critic,"],
      ["  reviewer:\n    - { role: writer", "  critic:\n    - { role: writer"],
    );
    const thread = await replay(record, edited);
    expect(thread.divergence).toMatchObject({ kind: "role-missing", step: 2, role: "reviewer", expected: "reviewer" });
  });

  it("reports start inputs the new workflow's inputs: schema refuses, at step 0", async () => {
    kit = createEngineTestKit();
    const record = await finishedThread(REVIEW_LIST);
    const edited = editedCopy(REVIEW_LIST, [
      "roles:\n",
      "inputs:\n  type: object\n  properties:\n    ticket: { type: string }\n  required: [ticket]\nroles:\n",
    ]);
    const thread = await replay(record, edited);
    expect(thread.divergence).toMatchObject({ kind: "inputs-refused", step: 0, role: "$START", field: "ticket" });
    expect(thread.divergence?.address).toBe(record.start);
  });

  it("reports an edge prompt that no longer renders", async () => {
    kit = createEngineTestKit();
    const record = await finishedThread(REVIEW_LIST);
    const edited = editedCopy(
      REVIEW_LIST,
      ["summary: { type: string }", "summary: { type: string }\n        files: { type: string }"],
      // A field the reply leaves out renders empty: a prompt of nothing else renders empty, which a step refuses.
      ["Review the change: {{ summary }}", "{{ files }}"],
    );
    const thread = await replay(record, edited);
    expect(thread.divergence).toMatchObject({ kind: "prompt-failed", step: 1, role: "writer", actual: "reviewer" });
    expect(thread.divergence?.reason).toContain("files");
  });
});

describe("replayThread, $status-keyed maps with per-status oneOf outputs and Liquid prompts", () => {
  it("replays identically through the same workflow", async () => {
    kit = createEngineTestKit();
    const record = await finishedThread(TRIAGE_MAP);
    expect(record.status).toBe("ended");
    const thread = await replay(record, TRIAGE_MAP);
    expect(thread).toMatchObject({ result: "identical", steps: 4, replayed: 4 });
  });

  it("refuses a reply whose oneOf branch now requires a field", async () => {
    kit = createEngineTestKit();
    const record = await finishedThread(TRIAGE_MAP);
    const edited = editedCopy(
      TRIAGE_MAP,
      [
        "severity: { type: string, enum: [low, high] }",
        "severity: { type: string, enum: [low, high] }\n            component: { type: string }",
      ],
      ["required: [$status, severity]", "required: [$status, severity, component]"],
    );
    const thread = await replay(record, edited);
    expect(thread.divergence).toMatchObject({ kind: "reply-refused", step: 1, role: "triager", field: "component" });
  });

  it("reports a status edge that now leads elsewhere, including the last step's route to $END", async () => {
    kit = createEngineTestKit();
    const record = await finishedThread(TRIAGE_MAP);
    const middle = await replay(
      record,
      editedCopy(TRIAGE_MAP, ["wontfix: { role: triager,", "wontfix: { role: answerer,"]),
    );
    expect(middle.divergence).toMatchObject({
      kind: "route-changed",
      step: 2,
      expected: "triager",
      actual: "answerer",
    });

    const last = await replay(
      record,
      editedCopy(TRIAGE_MAP, [
        'answered: { role: $END, prompt: "Answered." }',
        'answered: { role: triager, prompt: "Again." }',
      ]),
    );
    expect(last.divergence).toMatchObject({ kind: "route-changed", step: 4, expected: "$END", actual: "triager" });
  });

  it("reports a Liquid prompt that needs a field the reply does not set", async () => {
    kit = createEngineTestKit();
    const record = await finishedThread(TRIAGE_MAP);
    const edited = editedCopy(
      TRIAGE_MAP,
      ["topic: { type: string }", "topic: { type: string }\n            area: { type: string }"],
      [
        '"Answer the question about {{ topic | upcase }}."',
        '"{% if area %}Answer about {{ topic }} in {{ area }}.{% endif %}"',
      ],
    );
    const thread = await replay(record, edited);
    expect(thread.divergence).toMatchObject({ kind: "prompt-failed", step: 3, role: "triager", actual: "answerer" });
  });
});

describe("replayThread, suspensions, answers and resumes", () => {
  it("replays a suspension and its typed answer, which the conditions read, and refuses an answer the new schema refuses", async () => {
    kit = createEngineTestKit();
    const agent = kit.scriptedAgent([
      { role: "gate", output: { $status: "$SUSPEND", reason: "Deploy?", question: "Deploy v2 now?" } },
      { role: "gate", output: { $status: "decided" } },
      { role: "deployer", output: {}, body: "Deployed." },
    ]);
    const started = await kit.startThread({ workflow: APPROVAL });
    const options = kit.stepOptions(started.id, { defaultAgent: agent });
    const suspended = await stepUntilDone({ ...options, maxSteps: Number.POSITIVE_INFINITY });
    expect(suspended.record.status).toBe("suspended");
    // A suspended thread replays identically: its last reply leads nowhere yet.
    expect(await replay(suspended.record, APPROVAL)).toMatchObject({ result: "identical", steps: 1 });

    await stepThread({ ...options, resume: { typedAnswer: { approved: true, comment: "ship it" } } });
    const done = await stepUntilDone({ ...options, maxSteps: Number.POSITIVE_INFINITY });
    expect(done.record.status).toBe("ended");
    expect(await replay(done.record, APPROVAL)).toMatchObject({ result: "identical", steps: 3, replayed: 3 });

    const stricter = editedCopy(APPROVAL, [
      "    answer: approval",
      "    answer:\n      type: object\n      properties:\n        approved: { type: boolean }\n        ticket: { type: string }\n      required: [approved, ticket]",
    ]);
    expect((await replay(done.record, stricter)).divergence).toMatchObject({
      kind: "answer-refused",
      step: 2,
      role: "gate",
      field: "ticket",
    });

    const textOnly = editedCopy(
      APPROVAL,
      ["    answer: approval\n", ""],
      ["The person said: {{ answer.comment }}", "The person approved."],
      ["steps[-1].answer.approved = true", "true"],
    );
    const untyped = await replay(done.record, textOnly);
    expect(untyped.divergence).toMatchObject({ kind: "answer-refused", step: 2, field: null });
    expect(untyped.divergence?.reason).toBe(
      "role gate declares no answer: schema, so it takes text; the recorded answer is typed",
    );

    // The answer is history: a condition that reads it differently routes the answer's step elsewhere.
    const inverted = editedCopy(APPROVAL, ["answer.approved = true", "answer.approved = false"]);
    expect((await replay(done.record, inverted)).divergence).toMatchObject({
      kind: "route-changed",
      step: 2,
      expected: "deployer",
      actual: "stopper",
    });
  });

  it("refuses a text answer where the new role declares answer:, and takes it where the role still takes text", async () => {
    kit = createEngineTestKit();
    const textOnly = editedCopy(
      APPROVAL,
      ["    answer: approval\n", ""],
      ["The person said: {{ answer.comment }}", "The person approved."],
      ["steps[-1].answer.approved = true", "true"],
    );
    const agent = kit.scriptedAgent([
      { role: "gate", output: { $status: "$SUSPEND", reason: "Deploy?", question: "Deploy v2 now?" } },
      { role: "gate", output: { $status: "decided" } },
      { role: "deployer", output: {}, body: "Deployed." },
    ]);
    const started = await kit.startThread({ workflow: textOnly });
    const options = kit.stepOptions(started.id, { defaultAgent: agent });
    await stepUntilDone({ ...options, maxSteps: Number.POSITIVE_INFINITY });
    await stepThread({ ...options, resume: { answer: "Yes, ship it." } });
    const done = await stepUntilDone({ ...options, maxSteps: Number.POSITIVE_INFINITY });
    expect(done.record.status).toBe("ended");
    expect(await replay(done.record, textOnly)).toMatchObject({ result: "identical", steps: 3 });

    const typed = await replay(done.record, APPROVAL);
    expect(typed.divergence).toMatchObject({ kind: "answer-refused", step: 2, role: "gate", field: null });
    expect(typed.divergence?.reason).toBe(
      "role gate declares answer: with its fields: approved (boolean, required), comment (string); the recorded answer is text",
    );
  });

  it("follows a thread continued after it ended through $START's resume edge", async () => {
    kit = createEngineTestKit();
    const agent = kit.scriptedAgent([
      { role: "worker", output: { result: "first" } },
      { role: "worker", output: { result: "second" } },
    ]);
    const started = await kit.startThread({ workflow: REOPEN_WORKFLOW });
    const options = kit.stepOptions(started.id, { defaultAgent: agent });
    await stepUntilDone({ ...options, maxSteps: Number.POSITIVE_INFINITY });
    const resumed = await stepThread({ ...options, resume: { answer: "Now do more." } });
    expect(resumed.record).toMatchObject({ status: "ended", stepCount: 2 });
    expect(await replay(resumed.record, REOPEN_WORKFLOW)).toMatchObject({ result: "identical", steps: 2, replayed: 2 });

    const noResume = editedCopy(REOPEN_WORKFLOW, [
      '    resume: { role: worker, prompt: "Go on with: {{ start.prompt }}" }\n',
      "",
    ]);
    expect((await replay(resumed.record, noResume)).divergence).toMatchObject({ kind: "no-route", step: 1 });
  });
});

describe("replayThread, a suspension that timed out", () => {
  it("takes uwf's timeout step as recorded and routes it by the new $timeout edges", async () => {
    kit = createEngineTestKit();
    const agent = kit.scriptedAgent([
      { role: "asker", output: { $status: "$SUSPEND", reason: "Which colour?" } },
      // Step 2 is uwf's own timeout record: the agent plays no part in it.
      { role: "asker", output: { $status: "done" } },
      { role: "closer", output: {}, body: "Closed." },
    ]);
    const started = await kit.startThread({ workflow: GATE });
    const options = kit.stepOptions(started.id, { defaultAgent: agent });
    await stepThread(options);
    await Bun.sleep(250);
    await expireDueSuspensions({ store: kit.store, home: kit.home, host: "engine-test", now: kit.now });
    const done = await stepUntilDone({ ...options, maxSteps: Number.POSITIVE_INFINITY });
    expect(done.record).toMatchObject({ status: "ended", stepCount: 3 });
    expect(await replay(done.record, GATE)).toMatchObject({ result: "identical", replayed: 3 });

    const elsewhere = editedCopy(GATE, [
      '$timeout: { role: closer, prompt: "Nobody answered." }',
      "$timeout: { role: $END }\n    again: { role: closer, prompt: Close. }",
    ]);
    expect((await replay(done.record, elsewhere)).divergence).toMatchObject({
      kind: "route-changed",
      step: 2,
      role: "asker",
      expected: "closer",
      actual: "$END",
    });
  });
});

describe("replayThread, fan-outs", () => {
  const REVIEW = join(FIXTURES, "review-fan-out.yaml");
  const REVIEW_AGENT = `scripted:${join(FIXTURES, "review-fan-out.scenario.yaml")}`;

  it("checks a fan-out's join role and join prompt, routes the join's reply with the branches it joined, and counts the branches not replayed", async () => {
    kit = createEngineTestKit();
    const started = await kit.startThread({ workflow: REVIEW });
    const done = await stepUntilDone({
      ...kit.stepOptions(started.id, { defaultAgent: REVIEW_AGENT }),
      maxSteps: Number.POSITIVE_INFINITY,
    });
    expect(done.record).toMatchObject({ status: "ended", stepCount: 2 });
    const thread = await replay(done.record, REVIEW);
    expect(thread).toMatchObject({ result: "identical", replayed: 2, branches: 3, notReplayed: null });

    const fewer = editedCopy(REVIEW, [
      '        style: { role: reviewer, prompt: "Review {{ plan }} for style" }\n',
      "",
    ]);
    const narrowed = await replay(done.record, fewer);
    expect(narrowed.divergence).toMatchObject({ kind: "route-changed", step: 1, expected: "synthesizer" });
    expect(narrowed.divergence?.reason).toContain(
      "now fans out to branches security (role reviewer), speed (role reviewer); it fanned out to security (role reviewer), speed (role reviewer), style (role reviewer)",
    );

    // The join's conditions read `branches` as the join saw them.
    const picky = editedCopy(
      REVIEW,
      ["  reviewer:\n    goal:", "  auditor:\n    goal: Audit.\n  reviewer:\n    goal:"],
      [
        "  synthesizer:\n    merged: { role: $END, prompt: Done. }",
        "  synthesizer:\n    - { role: auditor, condition: fast, prompt: Audit. }\n    - { role: $END, prompt: Done. }\n  auditor:\n    - { role: $END }",
      ],
      ["graph:", "conditions:\n  fast:\n    expression: \"branches.speed.output.verdict = 'fast'\"\ngraph:"],
    );
    expect((await replay(done.record, picky)).divergence).toMatchObject({
      kind: "route-changed",
      step: 2,
      role: "synthesizer",
      expected: "$END",
      actual: "auditor",
    });

    // A join prompt that needs what no branch reported no longer renders.
    const brokenJoin = editedCopy(REVIEW, [
      "{{ pair[1].output.verdict }}",
      "{{ pair[1].output.verdict.first.name | upcase }}",
    ]);
    expect((await replay(done.record, brokenJoin)).divergence).toMatchObject({
      kind: "prompt-failed",
      step: 1,
      role: "planner",
      actual: "synthesizer",
    });

    // A new join role, merger, which hands over to the synthesizer.
    const otherJoin = editedCopy(
      REVIEW,
      ["    role: synthesizer\n        policy: all", "    role: merger\n        policy: all"],
      [
        "  synthesizer:\n    goal: Merge the reviews.",
        "  merger:\n    goal: Merge.\n  synthesizer:\n    goal: Merge the reviews.",
      ],
      [
        "  synthesizer:\n    merged:",
        "  merger:\n    - { role: synthesizer, prompt: Go on. }\n  synthesizer:\n    merged:",
      ],
    );
    expect((await replay(done.record, otherJoin)).divergence).toMatchObject({
      kind: "route-changed",
      step: 1,
      expected: "synthesizer",
      actual: "merger",
    });

    const [branch] = await kit.store.refs.listBranches(done.record.id);
    const branchRecord = await kit.store.refs.getThread(branch?.thread as string);
    expect(await replay(branchRecord as ThreadRecord, REVIEW)).toMatchObject({
      result: "identical",
      replayed: 0,
      notReplayed: { fromStep: 1 },
    });
  });
});
