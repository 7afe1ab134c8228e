import { describe, expect, it } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  evalResultSchema,
  forkResultSchema,
  shownThreadSchema,
  startResultSchema,
  stepBatchResultSchema,
  stepResultSchema,
  workflowValidateResultSchema,
} from "@uwf/protocol";
import { toolErrorOf, useMcpSessions } from "../../helpers/mcp-session.ts";
import { EXAMPLES, FIXTURES, fixtureAgentsConfig, LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

const ASK = join(FIXTURES, "workflows/ask.yaml");
const ASK_AGENT = `scripted:${join(FIXTURES, "workflows/ask.scenario.yaml")}`;
const APPROVAL = join(FIXTURES, "workflows/approval.yaml");
const REVIEW_PR = join(EXAMPLES, "review-pr.yaml");
const APPROVAL_AGENT = `scripted:${join(FIXTURES, "workflows/approval.scenario.yaml")}`;

const temp = useTempHome({
  setUp: (home) => {
    home.writeConfig(`${fixtureAgentsConfig(["sleepy", "plan-then-fail"]).join("\n")}\n`);
    // A client names workflows by what the store holds (a name, a hash, a file of the home's workflows/), never a path.
    mkdirSync(join(home.home, "workflows"));
    for (const file of [LINEAR, ASK, APPROVAL, REVIEW_PR])
      copyFileSync(file, join(home.home, "workflows", basename(file)));
  },
});
const { connect } = useMcpSessions();

/** `uwf ARGS… --json` in the temp home, parsed. */
async function cliJson(args: string[]): Promise<unknown> {
  const run = await temp.uwf([...args, "--json"]);
  expect(run.stderr).toBe("");
  return run.json();
}

describe("uwf mcp's tools, each doing what its command does with --json", () => {
  it("starts and steps a thread within a step budget; show, log, read, list and diff give what --json gives", async () => {
    const session = await connect(temp);
    const started = await session.result<{ thread: string }>("start", {
      workflow: "linear",
      prompt: "Write hello.txt",
    });
    const thread = startResultSchema.parse(started).thread;

    // The step budget: one step in this call, though the thread has two to go.
    const progress: unknown[] = [];
    const stepped = (await session.client.callTool(
      { name: "step", arguments: { thread, steps: 1, agent: SCRIPTED } },
      undefined,
      {
        onprogress: (notification) => progress.push(notification),
      },
    )) as CallToolResult;
    const first = stepResultSchema.parse(stepped.structuredContent);
    expect(first.steps.map((step) => step.role)).toEqual(["planner"]);
    expect(first.status).toBe("active");
    expect(first.next).toBe("doer");
    expect(stepped._meta).toEqual({ "uwf/exitCode": 0 });
    // The step as `uwf log --json` reads it back.
    expect(first.steps).toEqual(((await cliJson(["log", thread])) as { steps: unknown }).steps as typeof first.steps);
    // uwf sends both notifications before the result, but the SDK's client runs a notification's handler a
    // microtask late and drops the call's progress handler on its result: when the last notification and the
    // result arrive in one read, the client never sees that notification. What it sees is in order.
    const sent = [
      { progress: 0, total: 1, message: "step 1: planner (scripted) started" },
      { progress: 1, total: 1, message: "step 1: planner finished" },
    ];
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress).toEqual(sent.slice(0, progress.length));
    // The client reports the notification it dropped as one for an unknown token: that, and nothing else.
    const dropped = session.errors.filter((error) =>
      error.message.startsWith("Received a progress notification for an unknown token"),
    );
    expect(dropped).toHaveLength(sent.length - progress.length);
    session.errors.splice(0, session.errors.length, ...session.errors.filter((error) => !dropped.includes(error)));

    for (const [tool, input, args] of [
      ["show", { reference: thread }, ["show", thread]],
      ["log", { thread }, ["log", thread]],
      ["read", { thread }, ["read", thread]],
      ["read", { thread, quota: 200 }, ["read", thread, "--quota", "200"]],
      ["list", {}, ["list"]],
      ["list", { status: "active", limit: 5 }, ["list", "--status", "active", "--limit", "5"]],
      ["show", { reference: first.head }, ["show", first.head]],
      ["show", { reference: first.head, reply: true }, ["show", first.head, "--reply"]],
    ] as const) {
      expect({ tool, input, result: await session.result(tool, input) }).toEqual({
        tool,
        input,
        result: await cliJson([...args]),
      });
    }

    // A counterfactual fork at the planner's step, with the reply given as text; diff compares it.
    const forked = forkResultSchema.parse(
      await session.result("fork", {
        reference: first.head,
        outputText: "---\nplan: write bye.txt\n---\nI will write bye.txt instead.\n",
      }),
    );
    expect(forked.forkedFrom.thread).toBe(thread);
    expect((await temp.showThread(forked.thread)).forkedFrom?.replaced).toBe(true);
    expect(await session.result("diff", { left: thread, right: forked.thread })).toEqual(
      await cliJson(["diff", thread, forked.thread]),
    );
    expect(await session.result("diff", { left: thread, right: forked.thread, bodies: true })).toEqual(
      await cliJson(["diff", thread, forked.thread, "--bodies"]),
    );

    // all: on to the end; the result says so, as `uwf step --all --json` would.
    const rest = stepResultSchema.parse(await session.result("step", { thread, all: true, agent: SCRIPTED }));
    expect(rest.steps.map((step) => step.role)).toEqual(["doer"]);
    expect(rest.status).toBe("ended");
    expect((await temp.showThread(thread)).status).toBe("ended");
    // Stepping an ended thread: nothing to do, the CLI's error and its exit code 10.
    const again = await session.call("step", { thread });
    const ended = await temp.uwf(["step", thread, "--json"]);
    expect(ended.exitCode).toBe(10);
    expect(JSON.parse((again.content[0] as { text: string }).text)).toEqual(JSON.parse(ended.stderr));
    expect(again._meta).toEqual({ "uwf/exitCode": 10 });
    expect(session.errors).toEqual([]);
  });

  it("runs a workflow to its end in one call", async () => {
    const session = await connect(temp);
    const ran = stepResultSchema.parse(
      await session.result("run", { workflow: "linear", prompt: "Go", agent: SCRIPTED }),
    );
    expect(ran.steps.map((step) => step.role)).toEqual(["planner", "doer"]);
    expect(ran.status).toBe("ended");
    expect(await session.result("show", { reference: ran.thread })).toEqual(await cliJson(["show", ran.thread]));
  });

  it("resumes a suspended thread with a text answer, and one whose role asks for a typed answer", async () => {
    const session = await connect(temp);
    const asked = stepResultSchema.parse(
      await session.result("run", { workflow: "ask", prompt: "Colour?", agent: ASK_AGENT }),
    );
    expect(asked.status).toBe("suspended");
    const resumed = stepResultSchema.parse(
      await session.result("resume", { thread: asked.thread, prompt: "blue", agent: ASK_AGENT }),
    );
    expect(resumed.status).toBe("ended");
    expect(resumed.steps.map((step) => step.output)).toEqual([{ answer: "blue" }]);

    const gated = stepResultSchema.parse(
      await session.result("run", { workflow: "approval", prompt: "Ship v2", agent: APPROVAL_AGENT }),
    );
    expect(gated.status).toBe("suspended");
    const refused = toolErrorOf(
      await session.call("resume", { thread: gated.thread, answer: { approved: "yes" }, agent: APPROVAL_AGENT }),
    );
    expect(refused.code).toBe("invalid-answer");
    const approved = stepResultSchema.parse(
      await session.result("resume", {
        thread: gated.thread,
        answer: { approved: true, comment: "ship it" },
        all: true,
        agent: APPROVAL_AGENT,
      }),
    );
    expect(approved.steps.map((step) => step.role)).toEqual(["gate", "deployer"]);
    expect(approved.status).toBe("ended");
  });

  it("reports a step that failed after others as an error, with the steps recorded before it, as --json does", async () => {
    const session = await connect(temp);
    const failed = await session.call("run", {
      workflow: "linear",
      prompt: "Write hello.txt",
      agent: "plan-then-fail",
    });
    const error = toolErrorOf(failed);
    expect(error).toMatchObject({ code: "agent-failed", data: { role: "doer" } });
    expect(failed._meta).toEqual({ "uwf/exitCode": 1 });
    const recorded = stepResultSchema.parse(JSON.parse((failed.content[1] as { text: string }).text));
    expect(recorded.steps.map((step) => step.role)).toEqual(["planner"]);
    expect(recorded).toMatchObject({ status: "failed", next: "doer", error });
    expect(await session.result("log", { thread: recorded.thread })).toEqual(await cliJson(["log", recorded.thread]));
  });

  it("cancels a thread and gives its record, as `uwf cancel --json` does", async () => {
    const session = await connect(temp);
    const thread = await temp.startThread();
    const cancelled = shownThreadSchema.parse(await session.result("cancel", { thread }));
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled).toEqual(shownThreadSchema.parse(await cliJson(["show", thread])));
  });

  it("takes start inputs as an object, checked against the workflow's inputs: schema", async () => {
    const session = await connect(temp);
    const started = startResultSchema.parse(
      await session.result("start", {
        workflow: "review-pr",
        prompt: "Review it",
        inputs: { repo: "acme/shop", prNumber: 42 },
      }),
    );
    const shown = (await cliJson(["show", started.thread])) as { inputs?: unknown };
    // As `--input repo=acme/shop --input prNumber=42` gives them, with the schema's default filled in.
    expect(shown.inputs).toEqual({ repo: "acme/shop", prNumber: 42, repoPath: "." });
    const refused = toolErrorOf(
      await session.call("start", { workflow: "review-pr", prompt: "Review it", inputs: { repo: 1 } }),
    );
    expect(refused.message).toContain("prNumber");
  });

  it("steps several threads at once with step_batch, as `uwf step T… --parallel K --json`", async () => {
    const session = await connect(temp);
    const threads = [await temp.startThread(), await temp.startThread()];
    const called = await session.call("step_batch", { threads, all: true, parallel: 2, agent: SCRIPTED });
    const batch = stepBatchResultSchema.parse(called.structuredContent);
    expect(batch.threads.map((thread) => [thread.thread, thread.status])).toEqual(threads.map((id) => [id, "ended"]));
    for (const thread of threads) expect((await temp.showThread(thread)).status).toBe("ended");
    expect(batch).toMatchObject({ threads: [{ steps: [{}, {}] }, { steps: [{}, {}] }] });
    // One thread is still a batch: the result keeps the batch's shape.
    const one = stepBatchResultSchema.parse(
      await session.result("step_batch", { threads: [await temp.startThread()] }),
    );
    expect(one.threads.length).toBe(1);
  });

  it("gives a fork family as tree and compare give it", async () => {
    const session = await connect(temp);
    const ran = stepResultSchema.parse(
      await session.result("run", { workflow: "linear", prompt: "Go", agent: SCRIPTED }),
    );
    const head = ran.steps[0]?.address ?? "";
    expect((await temp.uwf(["fork", head])).exitCode).toBe(0);
    expect(await session.result("tree", { thread: ran.thread })).toEqual(await cliJson(["tree", ran.thread]));
    expect(await session.result("compare", { reference: ran.thread })).toEqual(await cliJson(["compare", ran.thread]));
    expect(await session.result("compare", { reference: ran.thread, direct: true, sort: "cost" })).toEqual(
      await cliJson(["compare", ran.thread, "--direct", "--sort", "cost"]),
    );
    // The tree's human form explains its marks.
    expect((await temp.uwf(["tree", ran.thread])).stdout).toContain("*");
  });

  it("lists workflows, and validates a workflow sent as YAML text, never reading a file", async () => {
    const session = await connect(temp);
    expect((await temp.uwf(["workflow", "add", LINEAR])).exitCode).toBe(0);
    expect(await session.result("workflow_list", {})).toEqual(await cliJson(["workflow", "list"]));
    const text = readFileSync(LINEAR, "utf8");
    const valid = workflowValidateResultSchema.parse(await session.result("workflow_validate", { yaml: text }));
    const cli = workflowValidateResultSchema.parse(await cliJson(["workflow", "validate", LINEAR]));
    expect(valid).toMatchObject({ valid: true, name: "linear", hash: cli.hash, file: "workflow.yaml" });
    // An invalid one: every problem, exit code 1, as the CLI.
    const broken = await session.call("workflow_validate", {
      yaml: text.replace("role: doer, prompt", "role: nobody, prompt"),
      file: "mine.yaml",
    });
    const invalid = workflowValidateResultSchema.parse(broken.structuredContent);
    expect(invalid.valid).toBe(false);
    expect(invalid.errors.map((problem) => [problem.file, problem.path])).toContainEqual([
      "mine.yaml",
      "graph.planner[0].role",
    ]);
    expect(broken._meta).toEqual({ "uwf/exitCode": 1 });
    // An !include would read a file on the server: refused.
    writeFileSync(join(temp.work, "secret.txt"), "s3cret");
    const included = await session.call("workflow_validate", {
      yaml: text.replace("goal: Plan the work.", "goal: !include secret.txt"),
    });
    const refused = workflowValidateResultSchema.parse(included.structuredContent);
    expect(refused.valid).toBe(false);
    expect(JSON.stringify(refused)).not.toContain("s3cret");
    // workflow_validate is a reading tool: offered under --read-only.
    const reader = await connect(temp, { flags: ["--read-only"] });
    expect(await reader.result("workflow_validate", { yaml: text })).toEqual(valid);
  });

  it("runs a suite sent as YAML text on registered workflows, gates it, and shows and lists its report", async () => {
    const session = await connect(temp);
    expect((await temp.uwf(["workflow", "add", LINEAR])).exitCode).toBe(0);
    const suite = (workflow: string, gate: number) =>
      [
        "name: mcp-suite",
        `workflow: ${workflow}`,
        "repeat: 2",
        "cases:",
        "  - { name: hello, prompt: Write hello.txt }",
        "variants:",
        `  - { name: scripted, agent: "${SCRIPTED}" }`,
        "assert:",
        "  - { status: ended }",
        `gate: { min_pass_rate: ${gate} }`,
        "",
      ].join("\n");
    const ran = evalResultSchema.parse(await session.result("eval", { suite: suite("linear", 1) }));
    expect(ran.report.length).toBeGreaterThan(0);
    expect(await session.result("eval_show", { report: ran.report })).toEqual(
      await cliJson(["eval", "show", ran.report]),
    );
    expect(await session.result("eval_list", {})).toEqual(await cliJson(["eval", "list"]));
    expect((await cliJson(["list", "--workflow", "linear"])) as { threads: unknown[] }).toMatchObject({
      threads: [{ status: "ended" }, { status: "ended" }],
    });

    // A gate that does not hold: exit code 3, the report after the error, as the CLI prints it.
    const gated = await session.call("eval", { suite: suite("linear", 1), assert: ["status: failed"] });
    expect(toolErrorOf(gated).code).toBe("eval-gate-failed");
    expect(gated._meta).toEqual({ "uwf/exitCode": 3 });
    expect(evalResultSchema.parse(JSON.parse((gated.content[1] as { text: string }).text)).report).not.toBe(ran.report);

    // A workflow file in the suite is refused: workflows come from the store, never a path from the request.
    const byFile = toolErrorOf(await session.call("eval", { suite: suite(LINEAR, 1) }));
    expect(byFile.code).toBe("invalid-suite");
    expect(byFile.message).toContain("registered workflow");
    const judged = toolErrorOf(await session.call("eval", { suite: suite("linear", 0), assert: [`judge: ${LINEAR}`] }));
    expect(judged.code).toBe("invalid-assertion");
  });
});
