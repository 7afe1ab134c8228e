import { Database } from "bun:sqlite";
import { describe, expect, it } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  listResultSchema,
  logResultSchema,
  stepBatchResultSchema,
  stepResultSchema,
  treeResultSchema,
  waitResultSchema,
} from "@uwf/protocol";
import { writeWorkflow } from "../../../../../test/kit/workflow/write-workflow.ts";
import { errorOf } from "../../helpers/error-of.ts";
import { FIXTURES, fixtureAgentsConfig, LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome({
  setUp: (home) =>
    home.writeConfig(["retries: 1", ...fixtureAgentsConfig(["fail-while-flagged", "review-forever"])].join("\n")),
});

async function listed(...args: string[]) {
  const result = await temp.uwf(["list", ...args, "--json"]);
  expect(result.exitCode).toBe(0);
  return listResultSchema.parse(result.json()).threads;
}

describe("a step that fails outside a worker", () => {
  it("sets the thread failed with its run; list, show, log and wait say so; a retry that succeeds makes it go on", async () => {
    const flag = join(temp.work, "down");
    writeFileSync(flag, "");
    const env = { FAIL_FLAG: flag };
    const thread = await temp.startThread(LINEAR);

    const failed = await temp.uwf(["step", thread, "--agent", "fail-while-flagged", "--json"], { env });
    expect(failed.exitCode).toBe(1);
    const result = stepResultSchema.parse(failed.json());
    expect(result.status).toBe("failed");
    expect(result.failure).toMatchObject({ code: "agent-failed", attempts: 1 });
    const run = result.failure?.run;
    expect(run).toMatch(/^[0-9A-Z]{13}$/);
    expect(errorOf(failed.stderr).data.run).toBe(run);

    // list finds it by status and shows why; show gives the failure and the run; log lists the attempt in place.
    expect((await listed("--status", "failed")).map((record) => record.id)).toEqual([thread]);
    expect((await temp.uwf(["list"])).stdout).toContain("failed (agent-failed)");
    const shown = await temp.uwf(["show", thread]);
    expect(shown.stdout).toContain("failure     agent-failed: planner: the agent exited with code 3");
    expect(shown.stdout).toContain(`failed run  ${run}`);
    const log = logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json());
    expect(log.steps).toEqual([]);
    expect(log.failed).toEqual([expect.objectContaining({ number: 1, role: "planner", run, code: "agent-failed" })]);
    const logText = (await temp.uwf(["log", thread])).stdout;
    expect(logText).toMatch(new RegExp(`1 +${run} +planner +FAILED agent-failed`));

    // Watchers return at once: the thread failed (exit 1), never a timeout (75).
    const waited = await temp.uwf(["wait", thread, "--timeout", "60", "--json"]);
    expect(waited.exitCode).toBe(1);
    expect(waitResultSchema.parse(waited.json()).threads[0]).toMatchObject({ status: "failed", exitCode: 1 });
    const followed = await temp.uwf(["log", thread, "--follow"]);
    expect(followed.exitCode).toBe(1);
    expect(followed.stderr).toContain(`thread ${thread} failed`);

    // Failing again counts the attempts on; once the agent works, the step goes through.
    const again = await temp.uwf(["step", thread, "--agent", "fail-while-flagged", "--json"], { env });
    expect(again.exitCode).toBe(1);
    expect(stepResultSchema.parse(again.json()).failure?.attempts).toBe(2);
    rmSync(flag);
    const retried = await temp.uwf(["step", thread, "--agent", "fail-while-flagged", "--json"], { env });
    expect(retried.exitCode).toBe(0);
    const stepped = stepResultSchema.parse(retried.json());
    expect(stepped).toMatchObject({ status: "active", next: "doer", steps: [{ role: "planner" }] });
    expect(stepped).not.toHaveProperty("failure");
    expect(await temp.showThread(thread)).not.toHaveProperty("failure");
    expect(logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json())).not.toHaveProperty("failed");
  }, 120_000);

  it("sets a thread failed in `run` and in a batch too", async () => {
    const flag = join(temp.work, "down");
    writeFileSync(flag, "");
    const env = { FAIL_FLAG: flag };
    const ran = await temp.uwf(["run", LINEAR, "-p", "Go", "--agent", "fail-while-flagged", "--json"], { env });
    expect(ran.exitCode).toBe(1);
    expect(stepResultSchema.parse(ran.json()).status).toBe("failed");

    const other = await temp.startThread(LINEAR, "Another");
    const batch = await temp.uwf(["step", other, "--parallel", "2", "--agent", "fail-while-flagged", "--json"], {
      env,
    });
    expect(batch.exitCode).toBe(1);
    expect(stepBatchResultSchema.parse(batch.json()).threads[0]).toMatchObject({ outcome: "failed", status: "failed" });
    expect(await listed("--status", "failed")).toHaveLength(2);
  }, 120_000);
});

/** Two workflows with two `$END` edges each: an ordered list with JSONata conditions, and a `$status`-keyed map. */
function writeVerdictWorkflows(): { list: string; map: string } {
  const role = [
    "roles:",
    "  reviewer:",
    "    goal: Decide.",
    "    frontmatter:",
    "      type: object",
    "      properties: { approved: { type: boolean } }",
  ];
  const list = writeWorkflow(temp.work, "verdict-list", [
    ...role,
    "conditions:",
    "  approved: { description: Approved, expression: 'steps[-1].output.approved = true' }",
    "  gave_up: { description: Gave up, expression: 'steps[-1].output.approved = false' }",
    "graph:",
    "  $START: [ { role: reviewer, prompt: Review. } ]",
    "  reviewer:",
    "    - { role: $END, condition: approved, prompt: Approved. }",
    "    - { role: $END, condition: gave_up, prompt: Gave up. }",
  ]);
  const map = writeWorkflow(temp.work, "verdict-map", [
    ...role,
    "graph:",
    "  $START: [ { role: reviewer, prompt: Review. } ]",
    "  reviewer:",
    "    approved: { role: $END, prompt: Approved. }",
    "    gave_up: { role: $END, prompt: Gave up. }",
  ]);
  return { list, map };
}

function scenario(name: string, output: Record<string, unknown>): string {
  const file = join(temp.work, `${name}.scenario.yaml`);
  writeFileSync(file, `steps:\n  - role: reviewer\n    output: ${JSON.stringify(output)}\n    body: Decided.\n`);
  return `scripted:${file}`;
}

describe("outcomes", () => {
  it("records which $END edge ended each thread, for conditions and for $status keys, and filters by it", async () => {
    const { list, map } = writeVerdictWorkflows();
    const run = async (workflow: string, agentName: string) => {
      const ran = await temp.uwf(["run", workflow, "-p", "Go", "--agent", agentName, "--json"]);
      expect(ran.exitCode).toBe(0);
      return stepResultSchema.parse(ran.json());
    };
    const approvedByCondition = await run(list, scenario("yes", { approved: true }));
    const gaveUpByCondition = await run(list, scenario("no", { approved: false }));
    const approvedByKey = await run(map, scenario("approved", { $status: "approved" }));
    const gaveUpByKey = await run(map, scenario("gave-up", { $status: "gave_up" }));
    expect(gaveUpByKey.outcome).toEqual({
      role: "reviewer",
      status: "gave_up",
      edge: { index: 1, condition: null, key: "gave_up" },
    });

    const byId = new Map((await listed()).map((record) => [record.id, record.outcome]));
    expect(byId.get(approvedByCondition.thread)).toEqual({
      role: "reviewer",
      status: null,
      edge: { index: 0, condition: "approved", key: null },
    });
    expect(byId.get(gaveUpByCondition.thread)).toEqual({
      role: "reviewer",
      status: null,
      edge: { index: 1, condition: "gave_up", key: null },
    });
    expect(byId.get(approvedByKey.thread)).toEqual({
      role: "reviewer",
      status: "approved",
      edge: { index: 0, condition: null, key: "approved" },
    });
    expect((await listed("--outcome", "gave_up")).map((record) => record.id)).toEqual([gaveUpByKey.thread]);

    const table = (await temp.uwf(["list"])).stdout;
    expect(table).toContain("OUTCOME");
    expect(table).toContain("reviewer gave_up");
    expect(table).toContain("reviewer: approved");
    expect((await temp.uwf(["show", gaveUpByKey.thread])).stdout).toContain(
      "outcome     reviewer gave_up (edge 1 of reviewer: $status gave_up)",
    );
    expect((await temp.uwf(["log", gaveUpByCondition.thread])).stdout).toContain("outcome: reviewer: gave_up");
    const tree = treeResultSchema.parse((await temp.uwf(["tree", approvedByKey.thread, "--json"])).json());
    expect(tree.roots[0]?.outcome?.status).toBe("approved");
  }, 120_000);

  it("shows no outcome, and no error, for an ended thread recorded before outcomes were kept", async () => {
    const ran = await temp.uwf(["run", LINEAR, "-p", "Go", "--agent", SCRIPTED, "--json"]);
    expect(ran.exitCode).toBe(0);
    const { thread, outcome } = stepResultSchema.parse(ran.json());
    expect(outcome).toEqual({ role: "doer", status: null, edge: { index: 0, condition: null, key: null } });
    // What an older uwf left: an ended thread with no outcome.
    const database = new Database(join(temp.home, "refs.db"));
    database.run("UPDATE threads SET outcome = NULL");
    database.close();
    const shown = await temp.uwf(["show", thread]);
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).not.toContain("outcome");
    expect((await listed())[0]).not.toHaveProperty("outcome");
    expect((await temp.uwf(["list"])).stdout).not.toContain("OUTCOME");
  }, 120_000);
});

describe("the default step limit", () => {
  it("stops a loop whose reviewer never approves at 100 steps, suspended for its budget", async () => {
    const loop = join(FIXTURES, "workflows/long-review.yaml");
    const ran = await temp.uwf(["run", loop, "-p", "Go", "--agent", "review-forever", "--json"]);
    expect(ran.exitCode).toBe(20);
    const result = stepResultSchema.parse(ran.json());
    expect(result.steps).toHaveLength(100);
    expect(result).toMatchObject({ status: "suspended", reason: "budget" });
    expect(result.budget).toMatchObject({ maxSteps: 100, exceeded: "maxSteps", spent: { steps: 100 } });

    const unlimited = await temp.uwf(["start", loop, "-p", "Go", "--max-steps", "0", "--json"]);
    expect(await temp.showThread(unlimited.json<{ thread: string }>().thread)).not.toHaveProperty("budget");
  }, 300_000);
});

describe("exit codes that compose with &&", () => {
  it("wait exits 0 for an ended thread, so `uwf wait T && echo ok` prints ok; a batch counts an ended thread as done", async () => {
    const ran = await temp.uwf(["run", LINEAR, "-p", "Go", "--agent", SCRIPTED, "--json"]);
    expect(ran.exitCode).toBe(0);
    const { thread } = stepResultSchema.parse(ran.json());
    const waited = await temp.shell(`$UWF wait ${thread} && echo ok`);
    expect(waited).toMatchObject({ exitCode: 0, stdout: `${thread} ended (doer)\nok\n` });
    const followed = await temp.shell(`$UWF log ${thread} --follow >/dev/null && echo ok`);
    expect(followed).toMatchObject({ exitCode: 0, stdout: "ok\n" });
    // `step` keeps 10 for "nothing to do", so `while uwf step T; do :; done` still stops.
    expect((await temp.uwf(["step", thread])).exitCode).toBe(10);
    const batch = await temp.uwf(["step", thread, "--parallel", "2", "--json"]);
    expect(batch.exitCode).toBe(0);
    expect(stepBatchResultSchema.parse(batch.json()).threads[0]).toMatchObject({
      outcome: "already-ended",
      exitCode: 0,
      threadOutcome: { role: "doer" },
    });
    expect((await temp.uwf(["step", thread, "--parallel", "2"])).stdout).toContain("1 thread: 1 already-ended (doer)");
  }, 120_000);

  it("wait exits 20 for a suspended thread and 75 when it times out", async () => {
    const ask = join(FIXTURES, "workflows/ask.yaml");
    const agentName = `scripted:${join(FIXTURES, "workflows/ask.scenario.yaml")}`;
    const suspended = stepResultSchema.parse(
      (await temp.uwf(["run", ask, "-p", "Go", "--agent", agentName, "--json"])).json(),
    ).thread;
    expect((await temp.uwf(["wait", suspended])).exitCode).toBe(20);
    const active = await temp.startThread(LINEAR);
    expect((await temp.uwf(["wait", active, "--timeout", "0.2"])).exitCode).toBe(75);
  }, 120_000);
});

describe("suspensions", () => {
  it("print the role's question and the exact resume line on stderr, carry the reason in --json, and resume --all goes on", async () => {
    const ask = join(FIXTURES, "workflows/ask.yaml");
    const agentName = `scripted:${join(FIXTURES, "workflows/ask.scenario.yaml")}`;
    const ran = await temp.uwf(["run", ask, "-p", "Go", "--agent", agentName]);
    expect(ran.exitCode).toBe(20);
    const [record] = await listed();
    const thread = record?.id ?? "";
    expect(ran.stderr).toContain("asker asks: Which colour do you mean?\n");
    expect(ran.stderr).toContain(`answer with: uwf resume ${thread} -p "ANSWER"\n`);
    expect(ran.stdout).toContain(`thread ${thread} suspended · asker asks: Which colour do you mean?`);

    const json = await temp.uwf(["step", thread, "--json"]);
    expect(json.exitCode).toBe(20);
    expect(stepResultSchema.parse(json.json()).reason).toBe("Which colour do you mean?");

    // A role asked, answered, then another role: `resume --all` steps on to the end, as `run` does.
    const workflow = writeWorkflow(temp.work, "ask-then-do", [
      "roles:",
      "  asker: { goal: Ask., frontmatter: { type: object, properties: { answer: { type: string } } } }",
      "  doer: { goal: Do., frontmatter: { type: object, properties: { done: { type: boolean } } } }",
      "graph:",
      "  $START: [ { role: asker, prompt: Ask. } ]",
      "  asker: [ { role: doer, prompt: Do it. } ]",
      "  doer: [ { role: $END, prompt: Done. } ]",
    ]);
    const steps = join(temp.work, "ask-then-do.scenario.yaml");
    writeFileSync(
      steps,
      [
        "steps:",
        "  - { role: asker, output: { $status: $SUSPEND, reason: Which one? }, body: Asking. }",
        "  - { role: asker, output: { answer: blue }, body: Blue. }",
        "  - { role: doer, output: { done: true }, body: Done. }",
        "",
      ].join("\n"),
    );
    const asking = await temp.uwf(["run", workflow, "-p", "Go", "--agent", `scripted:${steps}`, "--json"]);
    expect(asking.exitCode).toBe(20);
    const asked = stepResultSchema.parse(asking.json()).thread;
    const resumed = await temp.uwf(["resume", asked, "-p", "blue", "--all", "--agent", `scripted:${steps}`, "--json"]);
    expect(resumed.exitCode).toBe(0);
    expect(stepResultSchema.parse(resumed.json())).toMatchObject({
      status: "ended",
      steps: [{ role: "asker" }, { role: "doer" }],
    });
  }, 120_000);
});
