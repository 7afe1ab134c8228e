import { afterEach, describe, expect, it } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isProcessAlive } from "@uwf/cas";
import { startTestPostgres } from "@uwf/cas/test";
import {
  errorResultSchema,
  evalResultSchema,
  forkResultSchema,
  listResultSchema,
  shownThreadSchema,
  startResultSchema,
  stepBatchResultSchema,
  stepResultSchema,
  workflowValidateResultSchema,
} from "@uwf/protocol";
import { UWF_COMMAND } from "../helpers/run-process.ts";
import {
  EXAMPLES,
  FIXTURES,
  fixtureAgentsConfig,
  LINEAR,
  SCRIPTED,
  type TempHome,
  useTempHome,
} from "../helpers/temp-home.ts";

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

interface Session {
  client: Client;
  /** What the client could not read on the server's stdout: anything but MCP messages lands here. */
  errors: Error[];
  stderr: () => string;
  call(name: string, input: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallToolResult>;
  /** A tool's structured result, failing the test (with uwf's error) when the call failed. */
  result<Value>(name: string, input: Record<string, unknown>): Promise<Value>;
}

const sessions: Client[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((client) => client.close()));
});

interface ConnectOptions {
  /** Global flags, before `mcp`. */
  globals?: string[];
  /** `mcp`'s own flags. */
  flags?: string[];
  env?: Record<string, string>;
}

/** `uwf [GLOBALS…] mcp [FLAGS…]` in the temp home, driven by the MCP SDK's own client over stdio. */
async function connect(home: TempHome, options: ConnectOptions = {}): Promise<Session> {
  const transport = new StdioClientTransport({
    command: UWF_COMMAND[0] as string,
    args: [...UWF_COMMAND.slice(1), ...(options.globals ?? []), "mcp", ...(options.flags ?? [])],
    cwd: home.work,
    env: { ...(process.env as Record<string, string>), UWF_HOME: home.home, NO_COLOR: "1", ...options.env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "uwf-e2e", version: "1.0.0" });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  sessions.push(client);
  const call = async (name: string, input: Record<string, unknown>, options: { signal?: AbortSignal } = {}) =>
    (await client.callTool({ name, arguments: input }, undefined, options)) as CallToolResult;
  return {
    client,
    errors,
    stderr: () => stderr,
    call,
    async result<Value>(name: string, input: Record<string, unknown>) {
      const called = await call(name, input);
      if (called.isError === true) throw new Error(`${name} failed: ${JSON.stringify(called.content)}`);
      // The text is the structured content, as `--json` prints it.
      expect(JSON.parse((called.content[0] as { text: string }).text)).toEqual(called.structuredContent);
      return called.structuredContent as Value;
    },
  };
}

/** `uwf ARGS… --json` in the temp home, parsed. */
async function cliJson(args: string[]): Promise<unknown> {
  const run = await temp.uwf([...args, "--json"]);
  expect(run.stderr).toBe("");
  return run.json();
}

/** The error document of a failed call: the CLI's `--json` error, `{"error":{code,message,data}}`. */
function errorOf(called: CallToolResult) {
  expect(called.isError).toBe(true);
  return errorResultSchema.parse(JSON.parse((called.content[0] as { text: string }).text)).error;
}

describe("uwf mcp, driven by the MCP SDK's client over stdio", () => {
  it("offers the thread commands as tools, with input schemas, and output schemas where a result has one shape", async () => {
    const session = await connect(temp);
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "start",
      "step",
      "run",
      "show",
      "log",
      "read",
      "list",
      "fork",
      "diff",
      "resume",
      "cancel",
      "step_batch",
      "follow",
      "tree",
      "compare",
      "eval",
      "eval_show",
      "eval_list",
      "workflow_list",
      "workflow_validate",
    ]);
    const step = tools.find((tool) => tool.name === "step");
    expect(Object.keys(step?.inputSchema.properties ?? {})).toEqual(["thread", "steps", "all", "agent", "timeout"]);
    expect(step?.inputSchema.required).toEqual(["thread"]);
    expect(step?.outputSchema?.type).toBe("object");
    expect(tools.find((tool) => tool.name === "show")?.annotations?.readOnlyHint).toBe(true);
    expect(session.client.getServerVersion()?.name).toBe("uwf");

    // --read-only: only the tools that read.
    const reader = await connect(temp, { flags: ["--read-only"] });
    expect((await reader.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "show",
      "log",
      "read",
      "list",
      "diff",
      "follow",
      "tree",
      "compare",
      "eval_show",
      "eval_list",
      "workflow_list",
      "workflow_validate",
    ]);
  });

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
    expect(progress).toEqual([
      { progress: 0, total: 1, message: "step 1: planner (scripted) started" },
      { progress: 1, total: 1, message: "step 1: planner finished" },
    ]);

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
    const refused = errorOf(
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
    const error = errorOf(failed);
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

  it("reads threads as resources: the list from `list`, each one's content `show --json`", async () => {
    const session = await connect(temp);
    const thread = await temp.startThread();
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(["uwf://threads/{id}"]);
    const { resources } = await session.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([`uwf://threads/${thread}`]);
    const read = await session.client.readResource({ uri: `uwf://threads/${thread}` });
    expect(read.contents[0]?.mimeType).toBe("application/json");
    const content = read.contents[0] as { text: string };
    expect(JSON.parse(content.text)).toEqual(await cliJson(["show", thread]));
    const completed = await session.client.complete({
      ref: { type: "ref/resource", uri: "uwf://threads/{id}" },
      argument: { name: "id", value: thread.slice(0, 12).toLowerCase() },
    });
    expect(completed.completion.values).toEqual([thread]);
    const missing = session.client.readResource({ uri: "uwf://threads/01ZZZZZZZZZZZZZZZZZZZZZZZZ" });
    await expect(missing).rejects.toThrow(/no thread/);
  });

  it("reports a bad thread id, a bad field and stdin as error results carrying uwf's code, and goes on serving", async () => {
    const session = await connect(temp);
    const missing = await session.call("show", { reference: "01ZZZZZZZZZZZZZZZZZZZZZZZZ" });
    const error = errorOf(missing);
    expect(error.code).toBe("thread-not-found");
    expect(error.message).toContain("01ZZZZZZZZZZZZZZZZZZZZZZZZ");
    expect(missing._meta).toEqual({ "uwf/exitCode": 1 });
    // The same document `uwf show … --json` writes to stderr.
    const cli = await temp.uwf(["show", "01ZZZZZZZZZZZZZZZZZZZZZZZZ", "--json"]);
    expect(JSON.parse(cli.stderr)).toEqual(JSON.parse((missing.content[0] as { text: string }).text));

    expect(errorOf(await session.call("log", { thread: "nope" })).code).toBe("thread-not-found");
    expect(errorOf(await session.call("start", { workflow: "linear", prompt: "-" })).code).toBe("usage");
    expect(errorOf(await session.call("step", { thread: "-" })).code).toBe("usage");
    const invalid = await session.call("step", { thread: "x", steps: 0 });
    expect(invalid.isError).toBe(true);
    expect(JSON.stringify(invalid.content)).toContain("steps");
    // Still serving.
    expect(await session.result("list", {})).toEqual(await cliJson(["list"]));
    expect(session.errors).toEqual([]);
  });

  it("stops a running step when the client cancels the call: the thread stays where it was, ready to step", async () => {
    const pidFile = join(temp.work, "sleepy.pid");
    const session = await connect(temp, { env: { PID_FILE: pidFile } });
    const thread = await temp.startThread();
    const cancel = new AbortController();
    const stepping = session.call("step", { thread, agent: "sleepy" }, { signal: cancel.signal });
    const caught = stepping.catch((error: unknown) => error);
    // sleepy.sh writes its pid file once it runs; the server's environment gives it PID_FILE.
    await waitFor(() => existsSync(pidFile));
    cancel.abort("enough");
    expect(String(await caught)).toContain("enough");
    // The server stops the agent and releases the lease: the thread steps again at once.
    await waitFor(async () => (await temp.showThread(thread)).status === "active" && !(await isRunning(thread)));
    const shown = await temp.showThread(thread);
    expect(shown.stepCount).toBe(0);
    const stepped = stepResultSchema.parse(await session.result("step", { thread, agent: SCRIPTED }));
    expect(stepped.steps.map((step) => step.role)).toEqual(["planner"]);
  }, 30_000);

  it("works on the store the global flags name (--home)", async () => {
    const other = join(temp.work, "other-home");
    mkdirSync(other);
    const started = await temp.uwf(["--home", other, "start", LINEAR, "-p", "Elsewhere", "--json"]);
    const thread = startResultSchema.parse(started.json()).thread;
    const session = await connect(temp, { globals: ["--home", other] });
    const listed = await session.result<{ threads: Array<{ id: string }> }>("list", {});
    expect(listed.threads.map((listedThread) => listedThread.id)).toEqual([thread]);
    expect(readFileSync(join(other, "refs.db")).length).toBeGreaterThan(0);
  });

  it("writes only MCP messages on stdout while agents run, and interrupts a running step when the client closes stdin", async () => {
    const pidFile = join(temp.work, "sleepy.pid");
    const thread = await temp.startThread();
    // By hand rather than through the SDK's transport: every byte of stdout is read here.
    const child = Bun.spawn([...UWF_COMMAND, "mcp"], {
      cwd: temp.work,
      env: { ...process.env, UWF_HOME: temp.home, NO_COLOR: "1", PID_FILE: pidFile },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    // plan-then-fail is a command agent that prints its reply (and the doer's complaint on stderr).
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "run", arguments: { workflow: "linear", prompt: "Go", agent: "plan-then-fail" } },
    });
    send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "step", arguments: { thread, agent: "sleepy" } },
    });
    child.stdin.flush();
    await waitFor(() => existsSync(pidFile));
    const sleepers = [pidFile, `${pidFile}.child`].map((file) => Number(readFileSync(file, "utf8")));
    child.stdin.end();
    const [stdout, exitCode] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    expect(exitCode).toBe(0);
    const messages = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { jsonrpc: string; id?: number; result?: { isError?: boolean } });
    expect(messages.every((message) => message.jsonrpc === "2.0")).toBe(true);
    expect(messages.map((message) => message.id).toSorted()).toEqual([1, 2, 3]);
    // The step the closed stdin interrupted: its agent is gone, the thread where it was and free to step.
    expect(messages.find((message) => message.id === 3)?.result?.isError).toBe(true);
    for (const sleeper of sleepers) expect(isProcessAlive(sleeper)).toBe(false);
    const shown = await temp.showThread(thread);
    expect(shown.stepCount).toBe(0);
    expect(await isRunning(thread)).toBe(false);
  }, 30_000);

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
    const refused = errorOf(
      await session.call("start", { workflow: "review-pr", prompt: "Review it", inputs: { repo: 1 } }),
    );
    expect(refused.message).toContain("prNumber");
  });

  it("works on a PostgreSQL store named by --store", async () => {
    const postgres = await startTestPostgres();
    const url = postgres.newStoreUrl();
    const session = await connect(temp, { globals: ["--store", url] });
    const ran = stepResultSchema.parse(
      await session.result("run", { workflow: "linear", prompt: "Go", agent: SCRIPTED }),
    );
    expect(ran.status).toBe("ended");
    const listed = listResultSchema.parse(await session.result("list", {}));
    expect(listed.threads.map((thread) => thread.id)).toEqual([ran.thread]);
    expect(listed).toEqual(listResultSchema.parse(await cliJson(["--store", url, "list"])));
    // Nothing went to the home's own store.
    expect(await cliJson(["list"])).toMatchObject({ threads: [] });
  }, 120_000);

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

  it("follows a thread another process steps, each step a progress notification before the result, until it ends", async () => {
    const thread = await temp.startThread();
    // By hand rather than through the SDK's client, which drops progress that arrives in the same read
    // as the result: here every line of stdout is read, in order.
    const child = Bun.spawn([...UWF_COMMAND, "mcp"], {
      cwd: temp.work,
      env: { ...process.env, UWF_HOME: temp.home, NO_COLOR: "1" },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    const send = (message: object) => {
      child.stdin.write(`${JSON.stringify(message)}\n`);
      child.stdin.flush();
    };
    const lines = readLines(child.stdout);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect((await lines.next()).value).toContain('"id":1');
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "follow", arguments: { thread }, _meta: { progressToken: "f" } },
    });
    // Another process steps it to its end meanwhile.
    const stepped = await temp.uwf(["step", thread, "--all", "--agent", SCRIPTED]);
    expect(stepped.exitCode).toBe(0);
    const messages: Array<{ id?: number; method?: string; params?: { message?: string }; result?: CallToolResult }> =
      [];
    for await (const line of lines) {
      const message = JSON.parse(line);
      messages.push(message);
      if (message.id === 2) break;
    }
    child.stdin.end();
    expect(await child.exited).toBe(0);
    expect(messages.map((message) => message.params?.message ?? `result ${message.id}`)).toEqual([
      "step 1: planner finished",
      "step 2: doer finished",
      `thread ${thread} ended`,
      "result 2",
    ]);
    const result = stepResultSchema.parse(messages.at(-1)?.result?.structuredContent);
    expect(result.status).toBe("ended");
    expect(result.steps.map((step) => step.role)).toEqual(["planner", "doer"]);
    // Under --read-only too: it only reads.
    const reader = await connect(temp, { flags: ["--read-only"] });
    expect(await reader.result("follow", { thread })).toEqual(result);
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
    expect(errorOf(gated).code).toBe("eval-gate-failed");
    expect(gated._meta).toEqual({ "uwf/exitCode": 3 });
    expect(evalResultSchema.parse(JSON.parse((gated.content[1] as { text: string }).text)).report).not.toBe(ran.report);

    // A workflow file in the suite is refused: workflows come from the store, never a path from the request.
    const byFile = errorOf(await session.call("eval", { suite: suite(LINEAR, 1) }));
    expect(byFile.code).toBe("invalid-suite");
    expect(byFile.message).toContain("registered workflow");
    const judged = errorOf(await session.call("eval", { suite: suite("linear", 0), assert: [`judge: ${LINEAR}`] }));
    expect(judged.code).toBe("invalid-assertion");
  });

  it("refuses --json: stdout carries the MCP messages only", async () => {
    const run = await temp.uwf(["mcp", "--json"]);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe("");
    expect(errorResultSchema.parse(JSON.parse(run.stderr)).error.code).toBe("usage");
  });
});

/** The lines of a stream as they come. */
async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      yield buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
    }
  }
}

async function isRunning(thread: string): Promise<boolean> {
  const listed = (await temp.uwf(["list", "--running", "--json"])).json() as { threads: Array<{ id: string }> };
  return listed.threads.some((listedThread) => listedThread.id === thread);
}

/** Polls until the condition holds (a file the agent writes, a lease released), for at most 20 s. */
async function waitFor(condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await Bun.sleep(50);
  }
}
