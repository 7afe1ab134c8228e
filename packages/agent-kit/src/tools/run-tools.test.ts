import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { McpServers } from "@uwf/protocol";
import { type AgentRunFixture, createAgentRunFixture } from "../test/agent-run-fixture.ts";
import { BUILT_IN_TOOL_NAMES } from "../test/built-in-tool-names.ts";
import {
  everythingServerSpec,
  filesystemServerSpec,
  isProcessRunning,
  processesWithCwd,
} from "../test/mcp-test-servers.ts";
import type { ToolContext } from "./agent-tool.ts";
import { runAgentTool, toolDefinitions } from "./agent-tools.ts";
import { openRunTools, type RunTools } from "./run-tools.ts";

/** A hang guard: each test starts a real server (a few hundred ms) and ends in a few seconds when it works. */
const HANG_GUARD_MS = 30_000;

let fixture: AgentRunFixture;
let context: ToolContext;
let notes: string[];
let pids: Map<string, number>;
let opened: RunTools[];

beforeEach(() => {
  fixture = createAgentRunFixture({ prefix: "uwf-run-tools-test-" });
  context = { ...fixture.toolContext, secretValues: ["the-api-key-in-use"] };
  notes = [];
  pids = new Map();
  opened = [];
});

afterEach(async () => {
  await Promise.all(opened.map((tools) => tools.close()));
  fixture.remove();
});

async function open(servers: McpServers, toolContext: ToolContext = context): Promise<RunTools> {
  const result = await openRunTools({
    servers,
    context: toolContext,
    note: (line) => notes.push(line),
    onSpawn: (server, pid) => pids.set(server, pid),
  });
  if (!result.success) throw new Error(result.error);
  opened.push(result.value);
  return result.value;
}

describe("openRunTools with MCP servers", () => {
  it(
    "offers a server's tools as SERVER__TOOL after the built-in ones, and runs them",
    async () => {
      const tools = await open({ everything: everythingServerSpec() });
      const names = toolDefinitions(tools.tools).map((tool) => tool.name);
      expect(names.slice(0, 6)).toEqual(BUILT_IN_TOOL_NAMES);
      expect(names).toContain("everything__echo");
      expect(names).toContain("everything__get-sum");
      for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      const echo = toolDefinitions(tools.tools).find((tool) => tool.name === "everything__echo");
      expect(echo?.input_schema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
      expect(echo?.input_schema).not.toHaveProperty("$schema");

      expect(await runAgentTool("everything__echo", { message: "hi" }, context, tools.tools)).toEqual({
        content: "Echo: hi",
        isError: false,
      });
      expect(await runAgentTool("everything__get-sum", { a: 2, b: 3 }, context, tools.tools)).toEqual({
        content: "The sum of 2 and 3 is 5.",
        isError: false,
      });
      const image = await runAgentTool("everything__get-tiny-image", {}, context, tools.tools);
      expect(image.content).toContain("[image content (image/png), not shown]");
      expect(notes).toContain(`MCP server "everything": 13 of 13 tools offered`);
    },
    HANG_GUARD_MS,
  );

  it(
    "leaves out what deny names or allow does not, and refuses a call of it, naming why",
    async () => {
      const tools = await open({
        everything: everythingServerSpec({ allow: ["echo", "get-sum", "get-env"], deny: ["get-env"] }),
        files: filesystemServerSpec(["."], { deny: ["write_file"] }),
      });
      const names = toolDefinitions(tools.tools).map((tool) => tool.name);
      expect(names.filter((name) => name.startsWith("everything__"))).toEqual([
        "everything__echo",
        "everything__get-sum",
      ]);
      expect(names).toContain("files__read_text_file");
      expect(names).not.toContain("files__write_file");

      const denied = await runAgentTool(
        "files__write_file",
        { path: join(fixture.cwd, "x.txt"), content: "x" },
        context,
        tools.tools,
      );
      expect(denied).toEqual({
        content: `the tool "files__write_file" is not available: the deny list of MCP server "files" names it`,
        isError: true,
      });
      expect(await runAgentTool("everything__get-tiny-image", {}, context, tools.tools)).toEqual({
        content: `the tool "everything__get-tiny-image" is not available: it is not in the allow list of MCP server "everything"`,
        isError: true,
      });
      const unknown = await runAgentTool("files__nope", {}, context, tools.tools);
      expect(unknown.isError).toBe(true);
      expect(unknown.content).toStartWith(`unknown tool "files__nope"; the tools are read_file, `);
      expect(unknown.content).not.toContain("files__write_file");
    },
    HANG_GUARD_MS,
  );

  it(
    "stops a call at the server's timeout, and the server answers the next one",
    async () => {
      const tools = await open({ everything: everythingServerSpec({ timeout: 1 }) });
      const started = Date.now();
      const slow = await runAgentTool(
        "everything__trigger-long-running-operation",
        { duration: 20, steps: 2 },
        context,
        tools.tools,
      );
      expect(slow).toEqual({
        content: "everything__trigger-long-running-operation was stopped: it did not finish within 1 s",
        isError: true,
      });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await runAgentTool("everything__echo", { message: "still here" }, context, tools.tools)).toEqual({
        content: "Echo: still here",
        isError: false,
      });
    },
    HANG_GUARD_MS,
  );

  it(
    "starts the server in the thread's cwd without provider keys, and redacts secrets from its results",
    async () => {
      writeFileSync(join(fixture.home, ".env"), "MCP_TEST_TOKEN=token-from-dotenv-123\n");
      writeFileSync(join(fixture.cwd, "notes.txt"), "the key is the-api-key-in-use\n");
      const saved = process.env.SOMEONES_API_KEY;
      process.env.SOMEONES_API_KEY = "provider-key-value-456";
      try {
        const tools = await open({
          everything: everythingServerSpec({ env: { GIVEN_TOKEN: `\${MCP_TEST_TOKEN}`, PLAIN: "plain-value" } }),
          files: filesystemServerSpec(),
        });
        const environment = await runAgentTool("everything__get-env", {}, context, tools.tools);
        expect(environment.isError).toBe(false);
        const shown = JSON.parse(environment.content) as Record<string, string>;
        expect(shown.PLAIN).toBe("plain-value");
        // Given on purpose through `env`, and still cut out of what the model sees: it is in the home's .env.
        expect(shown.GIVEN_TOKEN).toBe("[redacted]");
        expect(shown.SOMEONES_API_KEY).toBeUndefined();
        expect(shown.UWF_HOME).toBeUndefined();
        // Started in the thread's cwd: "." is the directory it may use.
        const allowed = await runAgentTool("files__list_allowed_directories", {}, context, tools.tools);
        expect(allowed.content).toContain(fixture.cwd);

        const read = await runAgentTool("files__read_text_file", { path: "notes.txt" }, context, tools.tools);
        expect(read).toEqual({ content: "the key is [redacted]\n", isError: false });
      } finally {
        if (saved === undefined) delete process.env.SOMEONES_API_KEY;
        else process.env.SOMEONES_API_KEY = saved;
      }
    },
    HANG_GUARD_MS,
  );

  it(
    "passes on the server's isError",
    async () => {
      const tools = await open({ files: filesystemServerSpec() });
      const result = await runAgentTool("files__read_text_file", { path: "/etc/passwd" }, context, tools.tools);
      expect(result.isError).toBe(true);
      expect(result.content).toContain("outside allowed directories");
    },
    HANG_GUARD_MS,
  );

  it(
    "stops every server's process when closed",
    async () => {
      const tools = await open({ everything: everythingServerSpec(), files: filesystemServerSpec() });
      const started = [...pids.values()];
      expect(started).toHaveLength(2);
      for (const pid of started) expect(isProcessRunning(pid)).toBe(true);
      await tools.close();
      for (const pid of started) expect(isProcessRunning(pid)).toBe(false);
      await tools.close();
    },
    HANG_GUARD_MS,
  );

  it(
    "answers a call of a server that crashed during it with an error result, and the step goes on",
    async () => {
      const tools = await open({ everything: everythingServerSpec() });
      const pid = pids.get("everything") ?? 0;
      setTimeout(() => process.kill(pid, "SIGKILL"), 300);
      const crashed = await runAgentTool(
        "everything__trigger-long-running-operation",
        { duration: 20, steps: 2 },
        context,
        tools.tools,
      );
      expect(crashed.isError).toBe(true);
      expect(crashed.content).toContain("Connection closed");
      const after = await runAgentTool("everything__echo", { message: "anyone?" }, context, tools.tools);
      expect(after.isError).toBe(true);
      await tools.close();
      expect(processesWithCwd(fixture.cwd)).toEqual([]);
    },
    HANG_GUARD_MS,
  );

  it(
    "stops what a server started through a wrapper too: its whole process group",
    async () => {
      const server = everythingServerSpec();
      // The shell leaves a sleeper behind, which ignores the end of its input: the group's SIGTERM ends it.
      const script = `sleep 300 & exec "$0" "$@"`;
      const tools = await open({
        wrapped: { command: "sh", args: ["-c", script, server.command, ...server.args] },
      });
      expect(await runAgentTool("wrapped__echo", { message: "wrapped" }, context, tools.tools)).toEqual({
        content: "Echo: wrapped",
        isError: false,
      });
      expect(processesWithCwd(fixture.cwd).length).toBe(2);
      await tools.close();
      expect(processesWithCwd(fixture.cwd)).toEqual([]);
    },
    HANG_GUARD_MS,
  );

  it(
    "fails with one line naming a server that cannot start, having stopped the others",
    async () => {
      const result = await openRunTools({
        servers: {
          everything: everythingServerSpec(),
          files: filesystemServerSpec(["no-such-directory"]),
        },
        context,
        note: () => {},
        onSpawn: (server, pid) => pids.set(server, pid),
      });
      expect(result.success).toBe(false);
      const error = result.success ? "" : result.error;
      expect(error).toBe(
        `MCP server "files": it exited (exit code 1) before it answered: Error: None of the specified directories are accessible`,
      );
      expect(pids.size).toBe(2);
      for (const pid of pids.values()) expect(isProcessRunning(pid)).toBe(false);
    },
    HANG_GUARD_MS,
  );

  it(
    "keeps secrets out of the error of a server that cannot start (it is stored with the run)",
    async () => {
      const shown = await openRunTools({
        servers: { ghost: { command: "/no/such/dir/the-api-key-in-use", args: [] } },
        context,
        note: () => {},
      });
      expect(shown.success ? "" : shown.error).toStartWith(
        `MCP server "ghost": could not start /no/such/dir/[redacted]`,
      );
    },
    HANG_GUARD_MS,
  );

  it("fails with one line naming a server whose command does not exist", async () => {
    const result = await openRunTools({
      servers: { ghost: { command: "uwf-no-such-mcp-server", args: [] } },
      context,
      note: () => {},
    });
    expect(result).toEqual({
      success: false,
      error: expect.stringMatching(/^MCP server "ghost": could not start uwf-no-such-mcp-server: /),
    });
  });

  it("fails naming a header variable that is not set, before connecting", async () => {
    const result = await openRunTools({
      servers: {
        remote: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: `Bearer \${UWF_TEST_NO_SUCH_VAR}` } },
      },
      context,
      note: () => {},
    });
    expect(result).toEqual({
      success: false,
      error: `MCP server "remote": header Authorization: \${UWF_TEST_NO_SUCH_VAR} is not set`,
    });
  });
});

describe("openRunTools with a streamable HTTP server", () => {
  it(
    "lists and calls the tools of a server already running, with headers from the environment",
    async () => {
      const port = freePort();
      const [command, script] = [everythingServerSpec().command, everythingServerSpec().args[0] ?? ""];
      const running = Bun.spawn([command, script, "streamableHttp"], {
        env: { ...process.env, PORT: String(port) },
        stdout: "ignore",
        stderr: "pipe",
      });
      let stopProxy = () => {};
      try {
        await waitForLine(running.stderr, "listening on port");
        writeFileSync(join(fixture.home, ".env"), "MCP_TEST_TOKEN=token-from-dotenv-123\n");
        // A pass-through in front of the real server, to see the headers uwf sends.
        const authorizations: Array<string | null> = [];
        const proxy = Bun.serve({
          port: 0,
          hostname: "127.0.0.1",
          fetch: (request) => {
            authorizations.push(request.headers.get("authorization"));
            const target = new URL(request.url);
            target.port = String(port);
            return fetch(new Request(target.toString(), request));
          },
        });
        stopProxy = () => proxy.stop(true);
        const tools = await open({
          remote: {
            url: `http://127.0.0.1:${proxy.port}/mcp`,
            headers: { Authorization: `Bearer \${MCP_TEST_TOKEN}` },
            allow: ["echo"],
          },
        });
        expect(
          toolDefinitions(tools.tools)
            .map((tool) => tool.name)
            .filter((name) => name.includes("__")),
        ).toEqual(["remote__echo"]);
        expect(await runAgentTool("remote__echo", { message: "over http" }, context, tools.tools)).toEqual({
          content: "Echo: over http",
          isError: false,
        });
        await tools.close();
        expect(authorizations.length).toBeGreaterThanOrEqual(3);
        expect(new Set(authorizations)).toEqual(new Set(["Bearer token-from-dotenv-123"]));
      } finally {
        stopProxy();
        running.kill("SIGKILL");
        await running.exited;
      }
    },
    HANG_GUARD_MS,
  );
});

describe("openRunTools with an HTTP server it cannot reach", () => {
  it("fails with one line naming the server", async () => {
    const result = await openRunTools({
      servers: { remote: { url: `http://127.0.0.1:${freePort()}/mcp` } },
      context,
      note: () => {},
    });
    expect(result).toEqual({
      success: false,
      error: expect.stringMatching(/^MCP server "remote": could not connect: [^\n]+$/),
    });
  });
});

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port ?? 0;
  probe.stop(true);
  return port;
}

async function waitForLine(stream: ReadableStream<Uint8Array>, text: string): Promise<void> {
  const decoder = new TextDecoder();
  let seen = "";
  for await (const chunk of stream) {
    seen += decoder.decode(chunk, { stream: true });
    if (seen.includes(text)) return;
  }
  throw new Error(`the server ended without saying "${text}": ${seen}`);
}

describe("openRunTools without MCP servers", () => {
  it("gives the built-in tools without loading the MCP SDK", () => {
    const script = [
      `const { openRunTools } = await import(${JSON.stringify(join(import.meta.dir, "run-tools.ts"))});`,
      "const loaded = () => Object.keys(require.cache).some((key) => key.includes('/node_modules/@modelcontextprotocol/'));",
      "const context = { workspace: '.', env: { thread: 'T', role: 'r', step: 1, home: '.' }, signal: new AbortController().signal, deadline: null };",
      "const opened = await openRunTools({ servers: {}, context, note: () => {} });",
      "console.log(JSON.stringify({ tools: opened.value.tools.length, loaded: loaded() }));",
    ].join("\n");
    const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({ tools: 6, loaded: false });
  });
});
