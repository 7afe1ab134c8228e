import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeAnthropicServer, fakeTextReply } from "@uwf/agent-kit/test";
import { errorResultSchema, logResultSchema, stepResultSchema, treeResultSchema } from "@uwf/protocol";
import { parseEvents } from "../../helpers/cli-events.ts";
import { FAKE_MODEL_ENV, startFakeModelApi } from "../../helpers/fake-model-api.ts";
import { fixtureWorkflow, LINEAR, SCRIPTED, scriptedFixture, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome();

/** How many nodes the store holds: a step that is not run writes none. */
function countObjects(): number {
  const folder = join(temp.home, "objects");
  return readdirSync(folder).reduce((sum, prefix) => sum + readdirSync(join(folder, prefix)).length, 0);
}

async function startLinear(...flags: string[]): Promise<string> {
  const started = await temp.uwf(["start", LINEAR, "-p", "Write hello.txt", ...flags, "--json"]);
  expect(started.stderr).toBe("");
  expect(started.exitCode).toBe(0);
  return started.json<{ thread: string }>().thread;
}

describe("a step limit", () => {
  it("runs one step under --max-steps 1, then suspends the thread for its budget (exit 20) without writing a node", async () => {
    const thread = await startLinear("--max-steps", "1");
    expect((await temp.uwf(["step", thread, "--agent", SCRIPTED])).exitCode).toBe(0);
    const before = await temp.showThread(thread);
    const objects = countObjects();

    const stopped = await temp.uwf(["step", thread, "--agent", SCRIPTED, "--jsonl"]);
    expect(stopped.exitCode).toBe(20);
    expect(stopped.stderr).toBe("");
    const events = parseEvents(stopped.stdout);
    expect(events).toEqual([{ type: "thread-suspended", thread, head: before.head, role: "doer", reason: "budget" }]);
    const after = await temp.showThread(thread);
    expect(after).toMatchObject({ status: "suspended", reason: "budget", head: before.head, stepCount: 1 });
    expect(after.budget).toEqual({
      maxSteps: 1,
      maxTokens: null,
      maxCostUsd: null,
      exceeded: "maxSteps",
      spent: { steps: 1, tokens: 0, costUsd: 0 },
    });
    expect(countObjects()).toBe(objects);

    // Stepping it again is refused as for any suspended thread, naming the way on.
    const again = await temp.uwf(["step", thread, "--agent", SCRIPTED]);
    expect(again.exitCode).toBe(20);
    expect(again.stderr).toContain(`uwf resume ${thread} --max-steps N`);
  });

  it("goes on with `resume --max-steps 2`, after refusing a resume that raises nothing or answers instead", async () => {
    const ran = await temp.uwf(["run", LINEAR, "-p", "Write hello.txt", "--max-steps", "1", "--agent", SCRIPTED]);
    expect(ran.exitCode).toBe(20);
    expect(ran.stdout).toContain("budget: max_steps 1 reached (1 used)");
    const thread = ran.stderr.match(/thread (\w{26})/)?.[1] ?? "";
    const objects = countObjects();

    const same = await temp.uwf(["resume", thread, "--max-steps", "1", "--agent", SCRIPTED, "--json"]);
    expect(same.exitCode).toBe(20);
    expect(errorResultSchema.parse(JSON.parse(same.stderr)).error).toMatchObject({
      code: "budget-exceeded",
      data: { thread, limit: "maxSteps", value: 1, spent: 1 },
    });
    expect(stepResultSchema.parse(same.json()).steps).toEqual([]);
    const answered = await temp.uwf(["resume", thread, "-p", "go on", "--agent", SCRIPTED]);
    expect(answered.exitCode).toBe(2);
    expect(answered.stderr).toContain("suspended for its budget, not by a role");
    const bare = await temp.uwf(["resume", thread]);
    expect(bare.exitCode).toBe(2);
    expect(countObjects()).toBe(objects);
    expect((await temp.showThread(thread)).budget?.exceeded).toBe("maxSteps");

    const resumed = await temp.uwf(["resume", thread, "--max-steps", "2", "--agent", SCRIPTED, "--json"]);
    expect(resumed.exitCode).toBe(0);
    const result = stepResultSchema.parse(resumed.json());
    expect(result.steps.map((step) => step.role)).toEqual(["doer"]);
    expect(result.status).toBe("ended");
    expect(result.budget).toMatchObject({ maxSteps: 2, exceeded: null, spent: { steps: 2 } });
  });

  it("keeps `run --max-steps N` of a workflow that ends within N steps ending as before (exit 0)", async () => {
    const ran = await temp.uwf(["run", LINEAR, "-p", "Go", "--max-steps", "2", "--agent", SCRIPTED, "--json"]);
    expect(ran.exitCode).toBe(0);
    expect(stepResultSchema.parse(ran.json())).toMatchObject({ status: "ended", steps: [{}, {}] });
  });

  it("needs the answer to a role's $SUSPEND even when a limit is raised", async () => {
    const ran = await temp.uwf(["run", fixtureWorkflow("ask"), "-p", "Go", "--agent", scriptedFixture("ask")]);
    expect(ran.exitCode).toBe(20);
    const [listed] = await temp.listThreads();
    const raised = await temp.uwf(["resume", listed?.id ?? "", "--max-steps", "9"]);
    expect(raised.exitCode).toBe(2);
    expect(raised.stderr).toContain("-p ANSWER");
  });
});

describe("where limits come from", () => {
  const budgetOf = async (thread: string) => (await temp.showThread(thread)).budget;

  it("takes each limit from the flag, else the workflow's budget:, else config's workflowBudgets, else config's budget", async () => {
    const limited = join(temp.work, "limited.yaml");
    writeFileSync(
      limited,
      readFileSync(LINEAR, "utf8").replace("name: linear\n", "name: limited\nbudget: { max_steps: 5 }\n"),
    );
    // With none set anywhere, the default step limit.
    expect(await budgetOf(await startLinear())).toMatchObject({ maxSteps: 100, maxTokens: null, maxCostUsd: null });

    temp.writeConfig("budget: { max_steps: 1, max_cost_usd: 3 }\n");
    expect(await budgetOf(await startLinear())).toMatchObject({ maxSteps: 1, maxTokens: null, maxCostUsd: 3 });

    temp.writeConfig(
      "budget: { max_steps: 1, max_cost_usd: 3 }\nworkflowBudgets:\n  linear: { max_steps: 2 }\n  limited: { max_steps: 7, max_tokens: 900 }\n",
    );
    expect(await budgetOf(await startLinear())).toMatchObject({ maxSteps: 2, maxTokens: null, maxCostUsd: 3 });
    const fromWorkflow = await temp.uwf(["start", limited, "-p", "Go", "--json"]);
    expect(await budgetOf(fromWorkflow.json<{ thread: string }>().thread)).toMatchObject({
      maxSteps: 5,
      maxTokens: 900,
      maxCostUsd: 3,
    });
    const fromFlag = await temp.uwf(["start", limited, "-p", "Go", "--max-steps", "9", "--max-cost", "0.5", "--json"]);
    expect(await budgetOf(fromFlag.json<{ thread: string }>().thread)).toMatchObject({
      maxSteps: 9,
      maxTokens: 900,
      maxCostUsd: 0.5,
    });
  });

  it("suspends a thread at the step limit its workflow's budget: sets", async () => {
    const limited = join(temp.work, "limited.yaml");
    writeFileSync(
      limited,
      readFileSync(LINEAR, "utf8").replace("name: linear\n", "name: limited\nbudget:\n  max_steps: 1\n"),
    );
    const ran = await temp.uwf(["run", limited, "-p", "Go", "--agent", SCRIPTED, "--json"]);
    expect(ran.exitCode).toBe(20);
    expect(stepResultSchema.parse(ran.json())).toMatchObject({ status: "suspended", steps: [{ role: "planner" }] });
  });

  it("suspends a thread at the step limit config's default budget sets", async () => {
    temp.writeConfig("budget:\n  max_steps: 1\n");
    const ran = await temp.uwf(["run", LINEAR, "-p", "Go", "--agent", SCRIPTED, "--json"]);
    expect(ran.exitCode).toBe(20);
    expect(stepResultSchema.parse(ran.json()).budget?.exceeded).toBe("maxSteps");
  });

  it("refuses a budget: with a wrong limit, naming it", async () => {
    const wrong = join(temp.work, "wrong.yaml");
    writeFileSync(
      wrong,
      readFileSync(LINEAR, "utf8").replace("name: linear\n", "name: wrong\nbudget: { max_cost: 2 }\n"),
    );
    const validated = await temp.uwf(["workflow", "validate", wrong]);
    expect(validated.exitCode).toBe(1);
    expect(validated.stdout + validated.stderr).toContain('budget.max_cost: unknown field "max_cost"');
  });
});

describe("a fork", () => {
  it("starts with its parent's limits and counts its steps from the fork point", async () => {
    const ran = await temp.uwf(["run", LINEAR, "-p", "Go", "--max-steps", "1", "--max-cost", "2", "--agent", SCRIPTED]);
    expect(ran.exitCode).toBe(20);
    const parent = ran.stderr.match(/thread (\w{26})/)?.[1] ?? "";

    const forked = await temp.uwf(["fork", parent, "--json"]);
    expect(forked.exitCode).toBe(0);
    const fork = forked.json<{ thread: string }>().thread;
    expect(await temp.showThread(fork)).toMatchObject({
      status: "active",
      stepCount: 1,
      budget: { maxSteps: 1, maxCostUsd: 2, exceeded: null, spent: { steps: 0, tokens: 0, costUsd: 0 } },
    });
    // Step 1 is the parent's: the fork may take one step of its own.
    const stepped = await temp.uwf(["step", fork, "--agent", SCRIPTED, "--json"]);
    expect(stepped.exitCode).toBe(0);
    expect(stepResultSchema.parse(stepped.json())).toMatchObject({
      status: "ended",
      budget: { spent: { steps: 1 } },
    });

    // A flag replaces the parent's limit it names; the others stay.
    const flagged = await temp.uwf(["fork", parent, "--max-steps", "3", "--json"]);
    expect((await temp.showThread(flagged.json<{ thread: string }>().thread)).budget).toMatchObject({
      maxSteps: 3,
      maxCostUsd: 2,
    });
    // The parent is still suspended for its own budget.
    expect((await temp.showThread(parent)).budget?.exceeded).toBe("maxSteps");
  });
});

describe("show, log, list and tree", () => {
  it("show spend against the budget", async () => {
    const ran = await temp.uwf(["run", LINEAR, "-p", "Go", "--max-steps", "1", "--agent", SCRIPTED]);
    const thread = ran.stderr.match(/thread (\w{26})/)?.[1] ?? "";
    await temp.uwf(["fork", thread]);

    expect((await temp.uwf(["show", thread])).stdout).toMatch(/^budget +1\/1 steps \(max_steps reached\)$/m);
    const log = await temp.uwf(["log", thread]);
    expect(log.stdout).toContain("budget: 1/1 steps (max_steps reached)");
    expect(logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json()).budget?.spent.steps).toBe(1);
    const list = await temp.uwf(["list"]);
    expect(list.stdout.split("\n")[0]).toContain("BUDGET");
    expect(list.stdout).toContain("1/1 steps (max_steps reached)");
    expect(list.stdout).toContain("0/1 steps");
    const listed = await temp.listThreads();
    expect(listed.map((each) => each.budget?.spent.steps)).toEqual([0, 1]);
    const tree = await temp.uwf(["tree", thread]);
    expect(tree.stdout).toContain("budget 1/1 steps (max_steps reached) *");
    expect(tree.stdout).toMatch(/step 1: \w{26} +active +1 step +\$0\.0000 +budget 0\/1 steps$/m);
    const treeJson = treeResultSchema.parse((await temp.uwf(["tree", thread, "--json"])).json());
    expect(treeJson.roots[0]?.budget?.exceeded).toBe("maxSteps");
  });

  it("leave a thread without a budget (--max-steps 0) as it was shown", async () => {
    const thread = (await temp.uwf(["start", LINEAR, "-p", "Go", "--max-steps", "0", "--json"])).json<{
      thread: string;
    }>().thread;
    expect((await temp.uwf(["show", thread])).stdout).not.toContain("budget");
    expect((await temp.uwf(["list"])).stdout).not.toContain("BUDGET");
    expect(await temp.showThread(thread)).not.toHaveProperty("budget");
  });
});

describe("token and cost limits, with the built-in agent against the fake Messages API", () => {
  const env = FAKE_MODEL_ENV;
  const WORKFLOW = fixtureWorkflow("model-review");
  let server: FakeAnthropicServer;

  beforeEach(() => {
    server = startFakeModelApi(temp, { extra: ["retries: 0"] });
  });
  afterEach(async () => {
    await server.close();
  });

  // 1,000 input tokens at $3 and 100 output at $15 per million: $0.0045.
  const writerReply = () =>
    fakeTextReply("---\nsummary: wrote hello.txt\n---\n", { input_tokens: 1_000, output_tokens: 100 });
  const approval = () =>
    fakeTextReply("---\n$status: approved\ncomments: fine\n---\n", { input_tokens: 10, output_tokens: 5 });

  it("suspends at the cost limit before the next agent starts, and resume --max-cost goes on", async () => {
    server.enqueue(writerReply(), approval());
    const ran = await temp.uwf(["run", WORKFLOW, "-p", "Create hello.txt", "--max-cost", "0.004", "--json"], { env });
    expect(ran.exitCode).toBe(20);
    const result = stepResultSchema.parse(ran.json());
    expect(result.steps.map((step) => step.role)).toEqual(["writer"]);
    expect(result.budget).toEqual({
      maxSteps: 100,
      maxTokens: null,
      maxCostUsd: 0.004,
      exceeded: "maxCostUsd",
      spent: { steps: 1, tokens: 1_100, costUsd: 0.0045 },
    });
    expect(server.messageRequests()).toHaveLength(1);
    expect((await temp.uwf(["show", result.thread])).stdout).toMatch(
      /^budget +1\/100 steps · \$0\.0045\/\$0\.0040 \(max_cost_usd reached\)$/m,
    );

    const short = await temp.uwf(["resume", result.thread, "--max-cost", "0.0045"], { env });
    expect(short.exitCode).toBe(20);
    expect(short.stderr).toContain("max_cost_usd $0.0045 reached ($0.0045 spent)");
    expect(server.messageRequests()).toHaveLength(1);

    const resumed = await temp.uwf(["resume", result.thread, "--max-cost", "1", "--json"], { env });
    expect(resumed.exitCode).toBe(0);
    expect(stepResultSchema.parse(resumed.json())).toMatchObject({ status: "ended", steps: [{ role: "reviewer" }] });
  }, 60_000);

  it("gives a fork of a thread suspended at its cost limit that limit, with nothing spent: it takes its next step", async () => {
    server.enqueue(writerReply(), approval());
    const ran = await temp.uwf(["run", WORKFLOW, "-p", "Create hello.txt", "--max-cost", "0.004", "--json"], { env });
    expect(ran.exitCode).toBe(20);
    const parent = stepResultSchema.parse(ran.json()).thread;

    const forked = await temp.uwf(["fork", parent, "--json"]);
    expect(forked.exitCode).toBe(0);
    const fork = forked.json<{ thread: string }>().thread;
    expect(await temp.showThread(fork)).toMatchObject({
      status: "active",
      next: "reviewer",
      usage: { costUsd: 0 },
      budget: { maxCostUsd: 0.004, exceeded: null, spent: { steps: 0, tokens: 0, costUsd: 0 } },
    });
    // 10 input tokens at $3 and 5 output at $15 per million.
    const stepped = await temp.uwf(["step", fork, "--json"], { env });
    expect(stepped.exitCode).toBe(0);
    expect(stepResultSchema.parse(stepped.json())).toMatchObject({
      status: "ended",
      steps: [{ role: "reviewer" }],
      budget: { exceeded: null, spent: { steps: 1, tokens: 15, costUsd: 0.000105 } },
    });
    expect(server.messageRequests()).toHaveLength(2);
    // The parent still stands where its budget stopped it.
    expect(await temp.showThread(parent)).toMatchObject({
      status: "suspended",
      budget: { exceeded: "maxCostUsd", spent: { costUsd: 0.0045 } },
    });
  }, 60_000);

  it("suspends at the token limit", async () => {
    server.enqueue(writerReply(), approval());
    const ran = await temp.uwf(["run", WORKFLOW, "-p", "Create hello.txt", "--max-tokens", "1100", "--json"], { env });
    expect(ran.exitCode).toBe(20);
    expect(stepResultSchema.parse(ran.json()).budget).toMatchObject({
      exceeded: "maxTokens",
      spent: { tokens: 1_100 },
    });
    expect(server.messageRequests()).toHaveLength(1);
  }, 60_000);

  it("counts the usage of failed runs: a thread whose failed run spent its budget takes no more steps", async () => {
    server.enqueue(fakeTextReply("No frontmatter here.", { input_tokens: 1_000, output_tokens: 100 }));
    const thread = (
      await temp.uwf(["start", WORKFLOW, "-p", "Create hello.txt", "--max-cost", "0.004", "--json"])
    ).json<{
      thread: string;
    }>().thread;
    const failed = await temp.uwf(["step", thread], { env });
    expect(failed.exitCode).toBe(1);
    expect(server.messageRequests()).toHaveLength(1);

    const stopped = await temp.uwf(["step", thread, "--json"], { env });
    expect(stopped.exitCode).toBe(20);
    expect(stepResultSchema.parse(stopped.json()).budget).toMatchObject({
      exceeded: "maxCostUsd",
      spent: { steps: 0, costUsd: 0.0045 },
    });
    expect(server.messageRequests()).toHaveLength(1);
    const shown = await temp.showThread(thread);
    expect(shown.failedUsage?.costUsd).toBe(0.0045);
  }, 60_000);
});
