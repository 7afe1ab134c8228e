import { describe, expect, it } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { isProcessAlive } from "@uwf/cas";
import { startTestPostgres } from "@uwf/cas/test";
import { errorResultSchema, listResultSchema, startResultSchema, stepResultSchema } from "@uwf/protocol";
import { toolErrorOf, useMcpSessions } from "../../helpers/mcp-session.ts";
import { initializeRawMcp, type RawMcpMessage, rawMcpRequest, serveRawMcp } from "../../helpers/raw-mcp-server.ts";
import { UWF_COMMAND } from "../../helpers/run-process.ts";
import { fixtureAgentsConfig, LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";
import { until } from "../../helpers/until.ts";

const temp = useTempHome({
  setUp: (home) => {
    home.writeConfig(`${fixtureAgentsConfig(["sleepy", "plan-then-fail"]).join("\n")}\n`);
    // A client names workflows by what the store holds (a name, a hash, a file of the home's workflows/), never a path.
    mkdirSync(join(home.home, "workflows"));
    for (const file of [LINEAR]) copyFileSync(file, join(home.home, "workflows", basename(file)));
  },
});
const { connect } = useMcpSessions();

/** `uwf ARGS… --json` in the temp home, parsed. */
async function cliJson(args: string[]): Promise<unknown> {
  const run = await temp.uwf([...args, "--json"]);
  expect(run.stderr).toBe("");
  return run.json();
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
    // Which tools only read is pinned in mcp-tools.test.ts; the server offers exactly those it marks so.
    const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint === true).map((tool) => tool.name);
    expect(readOnly).not.toContain("step");
    expect((await reader.client.listTools()).tools.map((tool) => tool.name)).toEqual(readOnly);
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
    const error = toolErrorOf(missing);
    expect(error.code).toBe("thread-not-found");
    expect(error.message).toContain("01ZZZZZZZZZZZZZZZZZZZZZZZZ");
    expect(missing._meta).toEqual({ "uwf/exitCode": 1 });
    // The same document `uwf show … --json` writes to stderr.
    const cli = await temp.uwf(["show", "01ZZZZZZZZZZZZZZZZZZZZZZZZ", "--json"]);
    expect(JSON.parse(cli.stderr)).toEqual(JSON.parse((missing.content[0] as { text: string }).text));

    expect(toolErrorOf(await session.call("log", { thread: "nope" })).code).toBe("thread-not-found");
    expect(toolErrorOf(await session.call("start", { workflow: "linear", prompt: "-" })).code).toBe("usage");
    expect(toolErrorOf(await session.call("step", { thread: "-" })).code).toBe("usage");
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
    await until(() => existsSync(pidFile), "the agent writing its pid");
    cancel.abort("enough");
    expect(String(await caught)).toContain("enough");
    // The server stops the agent and releases the lease: the thread steps again at once.
    await until(
      async () => (await temp.showThread(thread)).status === "active" && !(await isRunning(thread)),
      "the cancelled step letting go of the thread",
    );
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
    await until(() => existsSync(pidFile), "the agent writing its pid");
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

  it("follows a thread another process steps, each step a progress notification before the result, until it ends", async () => {
    const thread = await temp.startThread();
    // By hand rather than through the SDK's client, which drops progress that arrives in the same read
    // as the result: here every line of stdout is read, in order.
    const server = serveRawMcp(temp);
    expect((await initializeRawMcp(server)).id).toBe(0);
    await server.write(
      rawMcpRequest(2, "tools/call", { name: "follow", arguments: { thread }, _meta: { progressToken: "f" } }),
    );
    // Another process steps it to its end meanwhile.
    const stepped = await temp.uwf(["step", thread, "--all", "--agent", SCRIPTED]);
    expect(stepped.exitCode).toBe(0);
    const messages: RawMcpMessage[] = [];
    for (;;) {
      const message = await server.next();
      messages.push(message);
      if (message.id === 2) break;
    }
    expect((await server.stop()).exitCode).toBe(0);
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

  it("refuses --json: stdout carries the MCP messages only", async () => {
    const run = await temp.uwf(["mcp", "--json"]);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe("");
    expect(errorResultSchema.parse(JSON.parse(run.stderr)).error.code).toBe("usage");
  });
});

async function isRunning(thread: string): Promise<boolean> {
  return (await temp.listThreads("--running")).some((listed) => listed.id === thread);
}
