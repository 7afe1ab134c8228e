import { describe, expect, it } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { APPROVAL_ANSWER_SCHEMA, answerNodeSchema, stepResultSchema, threadStepNodeSchema } from "@uwf/protocol";
import { errorOf } from "../../helpers/error-of.ts";
import { FIXTURES, fixtureAgent, useTempHome } from "../../helpers/temp-home.ts";

const LIST = join(FIXTURES, "workflows/approval.yaml");
const MAP = join(FIXTURES, "workflows/approval-map.yaml");
const SCRIPTED = `scripted:${join(FIXTURES, "workflows/approval.scenario.yaml")}`;
const GATE_AGENT = ["--agent", "gate"];

const temp = useTempHome({
  setUp: (home) =>
    home.writeConfig(
      [
        "agents:",
        "  gate:",
        "    command: sh",
        `    args: ["${fixtureAgent("approval-gate")}"]`,
        "  broken:",
        "    command: sh",
        '    args: ["-c", "cat >/dev/null; echo broken >&2; exit 3"]',
      ].join("\n"),
    ),
});

/** A thread of `workflow` stepped once: its gate has suspended, asking. */
async function suspendedThread(workflow: string, agent: string[]): Promise<string> {
  const thread = await temp.startThread(workflow, "Ship v2");
  const step = await temp.uwf(["step", thread, ...agent, "--json"]);
  expect(step.exitCode).toBe(20);
  return thread;
}

describe("typed suspensions: ask:, answer: and uwf resume --answer", () => {
  it("refuses an answer the schema refuses (exit 2, naming the field; nothing recorded), then takes one and routes on it", async () => {
    const thread = await suspendedThread(LIST, ["--agent", SCRIPTED]);
    const before = await temp.showThread(thread);
    const objects = temp.objectCount();

    const refused = await temp.uwf([
      "resume",
      thread,
      "--answer",
      '{"approved": "yes"}',
      "--agent",
      SCRIPTED,
      "--json",
    ]);
    expect(refused.exitCode).toBe(2);
    const error = errorOf(refused.stderr);
    expect(error.code).toBe("invalid-answer");
    expect(error.data).toEqual({
      thread,
      role: "gate",
      field: "approved",
      problem: 'field "approved": expected boolean, got string "yes"',
    });
    // Text to a role that declares `answer:`, and no answer at all, are refused alike, saying what to give.
    const texted = await temp.uwf(["resume", thread, "-p", "yes", "--agent", SCRIPTED]);
    expect(texted.exitCode).toBe(2);
    expect(texted.stderr).toContain("give --answer with its fields: approved (boolean, required), comment (string)");
    const nothing = await temp.uwf(["resume", thread, "--agent", SCRIPTED]);
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toContain("no answer was given");
    const extra = await temp.uwf(["resume", thread, "--answer", "approved: true\nmood: great", "--json"]);
    expect(errorOf(extra.stderr).data.problem).toBe('the fields: unexpected field "mood"');

    expect(await temp.showThread(thread)).toEqual(before);
    expect(temp.objectCount()).toBe(objects);

    // Accepted from a YAML file: the step that answers carries an answer/1 node; the condition reads it.
    writeFileSync(join(temp.work, "answer.yaml"), "approved: true\ncomment: ship it\n");
    const accepted = await temp.uwf([
      "resume",
      thread,
      "--answer",
      "answer.yaml",
      "--all",
      "--agent",
      SCRIPTED,
      "--json",
    ]);
    expect(accepted.stderr).toBe("");
    expect(accepted.exitCode).toBe(0);
    const result = stepResultSchema.parse(accepted.json());
    expect(result.steps.map((step) => step.role)).toEqual(["gate", "deployer"]);
    expect(result.status).toBe("ended");
    const answering = threadStepNodeSchema.parse(
      (await temp.uwf(["cas", "get", result.steps[0]?.address ?? ""])).json(),
    );
    expect(answering.answer).toBeDefined();
    const answer = answerNodeSchema.parse((await temp.uwf(["cas", "get", answering.answer ?? ""])).json());
    expect(answer.fields).toEqual({ approved: true, comment: "ship it" });
    // `show STEP` gives the answer's fields beside the step's output, in text and JSON.
    const shown = await temp.uwf(["show", result.steps[0]?.address ?? "", "--json"]);
    expect(shown.json<{ answer?: unknown }>().answer).toEqual({ approved: true, comment: "ship it" });
    const shownText = await temp.uwf(["show", result.steps[0]?.address ?? ""]);
    expect(shownText.stdout).toContain("answer\n\napproved: true\ncomment: ship it\n\noutput");
    // The edge prompt after it renders the answer's comment.
    const deploy = threadStepNodeSchema.parse((await temp.uwf(["cas", "get", result.steps[1]?.address ?? ""])).json());
    expect(deploy.edgePrompt).toBe("Deploy. The person said: ship it");
    // `read` shows the person's answer on the step it answered.
    const read = await temp.uwf(["read", thread]);
    expect(read.stdout).toContain("**The human answered:**\n\n```yaml\napproved: true\ncomment: ship it\n```");
  }, 60_000);

  it("renders a comment the answer leaves out as empty, as a declared field", async () => {
    const thread = await suspendedThread(LIST, ["--agent", SCRIPTED]);
    const run = await temp.uwf([
      "resume",
      thread,
      "--answer",
      "approved: true",
      "--all",
      "--agent",
      SCRIPTED,
      "--json",
    ]);
    expect(run.exitCode).toBe(0);
    const result = stepResultSchema.parse(run.json());
    const deploy = threadStepNodeSchema.parse((await temp.uwf(["cas", "get", result.steps[1]?.address ?? ""])).json());
    expect(deploy.edgePrompt).toBe("Deploy. The person said:");
  }, 60_000);

  it("routes on approved: false through the list's JSONata condition (steps[-1].answer.approved)", async () => {
    const thread = await suspendedThread(LIST, ["--agent", SCRIPTED]);
    const scenario = join(temp.work, "no.scenario.yaml");
    // The same scenario with the stopper's step where the deployer's was: the route decides which runs.
    const text = readFileSync(join(FIXTURES, "workflows/approval.scenario.yaml"), "utf8");
    writeFileSync(scenario, text.replace(/ {2}- role: deployer\n.*\n.*\n/, ""));
    const run = await temp.uwf([
      "resume",
      thread,
      "--answer",
      '{"approved": false, "comment": "not on a Friday"}',
      "--all",
      "--agent",
      `scripted:${scenario}`,
      "--json",
    ]);
    expect(run.exitCode).toBe(0);
    const result = stepResultSchema.parse(run.json());
    expect(result.steps.map((step) => step.role)).toEqual(["gate", "stopper"]);
    const stop = threadStepNodeSchema.parse((await temp.uwf(["cas", "get", result.steps[1]?.address ?? ""])).json());
    expect(stop.edgePrompt).toBe("The person said no: not on a Friday");
  }, 60_000);

  it("gives the answer to the role's next prompt as YAML, and its $status map routes as the role decided (stdin answer)", async () => {
    const prompts = join(temp.work, "prompts");
    mkdirSync(prompts);
    const env = { UWF_PROMPTS: prompts };
    const thread = await temp.startThread(MAP, "Ship v2");
    const asked = await temp.uwf(["step", thread, ...GATE_AGENT, "--json"], { env });
    expect(asked.exitCode).toBe(20);
    // The role was told what to send when it suspends, and the shape of the answer it gets back.
    const first = readFileSync(join(prompts, "step-1.md"), "utf8");
    expect(first).toContain("## When you suspend");
    expect(first).toContain('- `risk` (string, **required**, one of "low", "high")');
    expect(first).toContain("- `approved` (boolean, **required**) — Whether to go on.");

    const run = await temp.uwf(["resume", thread, "--answer", "-", "--all", ...GATE_AGENT, "--json"], {
      env,
      stdin: "approved: true\ncomment: after the freeze\n",
    });
    expect(run.exitCode).toBe(0);
    const second = readFileSync(join(prompts, "step-2.md"), "utf8");
    expect(second).toContain(
      "You suspended this thread: Deploy to production?\n\nThe person's answer to your question, as the fields of your answer schema:\n\n```yaml\napproved: true\ncomment: after the freeze\n```",
    );
    const third = readFileSync(join(prompts, "step-3.md"), "utf8");
    expect(third).toContain("Deploy. The person said: after the freeze");
    const shown = await temp.showThread(thread);
    expect(shown.status).toBe("ended");
    // The gate said `go` on reading approved: true, so the deployer ran and ended the thread.
    expect(shown.outcome?.role).toBe("deployer");
    expect(shown.stepCount).toBe(3);
  }, 60_000);

  it("shows a suspension's question and answer schema (show --json, the step result) and a ready resume line", async () => {
    const thread = await temp.startThread(LIST, "Ship v2");
    const step = await temp.uwf(["step", thread, "--agent", SCRIPTED, "--json"]);
    const plain = await temp.uwf(["show", thread]);
    const expected = {
      role: "gate",
      reason: "Deploy to production?",
      ask: { question: "Deploy v2 now?", risk: "high" },
      // `answer: approval`: what the text below and the refusals above spell out, field by field.
      answerSchema: APPROVAL_ANSWER_SCHEMA,
      timeout: null,
      deadline: null,
    };
    expect(stepResultSchema.parse(step.json()).suspension).toEqual(expected);
    const shown = await temp.showThread(thread);
    expect(shown.suspension).toEqual(expected);
    const text = await temp.uwf(["show", thread]);
    expect(text.stdout).toContain("gate asks: Deploy to production?\n  question: Deploy v2 now?\n  risk: high");
    expect(text.stdout).toContain("  approved (boolean, required) — Whether to go on.");
    expect(text.stdout).toContain("  comment (string) — Anything the agent should know.");
    expect(text.stdout).toContain(`answer with: uwf resume ${thread} --answer '{"approved":true}'`);
    expect(plain.exitCode).toBe(0);
    // What a plain step says on stderr when the role suspends: the same ready line.
    const again = await temp.startThread(LIST, "Ship v2");
    const stepped = await temp.uwf(["step", again, "--agent", SCRIPTED]);
    expect(stepped.exitCode).toBe(20);
    expect(stepped.stderr).toContain(`answer with: uwf resume ${again} --answer '{"approved":true}'`);
    // Stepping it again is refused (exit 20) with the typed resume, not -p.
    const waiting = await temp.uwf(["step", again, "--agent", SCRIPTED]);
    expect(waiting.exitCode).toBe(20);
    expect(waiting.stderr).toContain(`answer with \`uwf resume ${again} --answer FIELDS\``);
  }, 60_000);

  it("keeps the thread suspended when the answered step fails, with the answer in the failed run's prompt; answering again works", async () => {
    const thread = await suspendedThread(LIST, ["--agent", SCRIPTED]);
    const failed = await temp.uwf([
      "resume",
      thread,
      "--answer",
      '{"approved": true, "comment": "first try"}',
      "--agent",
      "broken",
      "--json",
    ]);
    expect(failed.exitCode).toBe(1);
    const error = errorOf(failed.stderr);
    expect(error.code).toBe("agent-failed");
    expect((await temp.showThread(thread)).status).toBe("suspended");
    const prompt = await temp.uwf(["show", String(error.data.run), "--prompt"]);
    expect(prompt.stdout).toContain("```yaml\napproved: true\ncomment: first try\n```");
    const again = await temp.uwf(["resume", thread, "--answer", "approved: true", "--all", "--agent", SCRIPTED]);
    expect(again.exitCode).toBe(0);
    expect((await temp.showThread(thread)).status).toBe("ended");
  }, 60_000);

  it("checks ask: and answer: as JSON Schemas of objects when the workflow is validated, at FILE:LINE:COL", async () => {
    const file = join(FIXTURES, "workflows/invalid-ask-answer.yaml");
    const validated = await temp.uwf(["workflow", "validate", file]);
    expect(validated.exitCode).toBe(1);
    expect(validated.stderr + validated.stdout).toContain(
      `${file}:9:27: error: roles.gate.ask.properties.question.type: invalid JSON Schema: must be equal to one of the allowed values`,
    );
    expect(validated.stderr + validated.stdout).toContain(
      `${file}:11:13: error: roles.gate.answer.type: an answer is named fields, so the type is "object"`,
    );
  }, 60_000);

  it("refuses --answer to a role that takes text, which still takes -p", async () => {
    const ask = join(FIXTURES, "workflows/ask.yaml");
    const scenario = `scripted:${join(FIXTURES, "workflows/ask.scenario.yaml")}`;
    const thread = await suspendedThread(ask, ["--agent", scenario]);
    const shown = await temp.showThread(thread);
    expect(shown.suspension?.answerSchema).toBeNull();
    const refused = await temp.uwf(["resume", thread, "--answer", '{"colour": "blue"}', "--agent", scenario, "--json"]);
    expect(refused.exitCode).toBe(2);
    expect(errorOf(refused.stderr)).toMatchObject({
      code: "invalid-answer",
      data: { field: null, problem: "role asker declares no answer: schema, so it takes text: give it with -p TEXT" },
    });
    const answered = await temp.uwf(["resume", thread, "-p", "blue", "--agent", scenario]);
    expect(answered.exitCode).toBe(0);
  }, 60_000);
});
