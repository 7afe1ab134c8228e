import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { McpServers } from "@uwf/protocol";
import { BUILT_IN_TOOL_NAMES } from "../test/built-in-tool-names.ts";
import { useFakeAnthropicRun } from "../test/fake-anthropic-run.ts";
import { fakeTextReply, fakeToolUseReply } from "../test/index.ts";
import {
  everythingServerSpec,
  filesystemServerSpec,
  isProcessRunning,
  processesWithCwd,
} from "../test/mcp-test-servers.ts";

const PROMPT =
  "# Output format\n\nStart with frontmatter.\n\n# Your role: writer\n\nYou write.\n\n# Task\n\nUse the tools.\n\n# Your next step\n\nGo.\n";
const DONE = "---\nsummary: done\n---\n\nDone.";
/** A hang guard: each test starts real servers and ends in a few seconds when it works. */
const HANG_GUARD_MS = 40_000;

const fake = useFakeAnthropicRun("uwf-anthropic-mcp-test-");

function run(servers: McpServers, timeoutMs = 20_000) {
  return fake.run({ prompt: PROMPT, config: fake.config(), timeoutMs }, { mcpServers: servers });
}

/** The tool_result blocks of a recorded request's last message. */
function toolResults(requestIndex: number): Array<{ tool_use_id: string; content: string; is_error?: boolean }> {
  const body = fake.server.scriptedRequests()[requestIndex]?.body as { messages: Array<{ content: unknown[] }> };
  return body.messages.at(-1)?.content as Array<{ tool_use_id: string; content: string; is_error?: boolean }>;
}

function offeredTools(requestIndex: number): string[] {
  const body = fake.server.scriptedRequests()[requestIndex]?.body as { tools: Array<{ name: string }> };
  return body.tools.map((tool) => tool.name);
}

describe("the built-in anthropic agent with MCP servers", () => {
  it(
    "offers the servers' tools, runs the model's calls, refuses a denied one, and stops the servers at the end",
    async () => {
      const seen: number[] = [];
      fake.server.enqueue(
        fakeToolUseReply([
          { name: "everything__echo", input: { message: "from the model" } },
          { name: "files__write_file", input: { path: "notes.txt", content: "x" } },
          { name: "files__read_text_file", input: { path: "task.txt" } },
        ]),
        () => {
          // While the step runs, both servers run in the thread's cwd.
          seen.push(...processesWithCwd(fake.fixture.cwd));
          return fakeTextReply(DONE);
        },
      );
      await Bun.write(join(fake.fixture.cwd, "task.txt"), "the task file\n");
      const result = await run({
        everything: everythingServerSpec({ allow: ["echo", "get-sum"] }),
        files: filesystemServerSpec(["."], { deny: ["write_file", "edit_file", "move_file"] }),
      });
      expect(result.error).toBeNull();
      expect(result.reply).toBe(DONE);

      const offered = offeredTools(0);
      expect(offered.slice(0, 6)).toEqual(BUILT_IN_TOOL_NAMES);
      expect(offered).toContain("everything__echo");
      expect(offered).toContain("files__read_text_file");
      expect(offered).not.toContain("files__write_file");
      expect(offered).not.toContain("everything__get-env");
      expect(offeredTools(1)).toEqual(offered);

      expect(toolResults(1).map(({ content, is_error }) => ({ content, is_error }))).toEqual([
        { content: "Echo: from the model", is_error: undefined },
        {
          content: `the tool "files__write_file" is not available: the deny list of MCP server "files" names it`,
          is_error: true,
        },
        { content: "the task file\n", is_error: undefined },
      ]);
      expect(() => readFileSync(join(fake.fixture.cwd, "notes.txt"))).toThrow();

      // The stored transcript holds the calls and their results.
      const transcript = JSON.stringify(result.transcript);
      expect(transcript).toContain('"name":"everything__echo"');
      expect(transcript).toContain("Echo: from the model");
      expect(transcript).toContain('deny list of MCP server \\"files\\"');

      expect(seen.length).toBeGreaterThanOrEqual(2);
      for (const pid of seen) expect(isProcessRunning(pid)).toBe(false);
      expect(processesWithCwd(fake.fixture.cwd)).toEqual([]);
    },
    HANG_GUARD_MS,
  );

  it(
    "stops a call that runs past the server's timeout, and the step goes on",
    async () => {
      fake.server.enqueue(
        fakeToolUseReply({ name: "slow__trigger-long-running-operation", input: { duration: 30, steps: 3 } }),
        fakeToolUseReply({ name: "slow__echo", input: { message: "after" } }),
        fakeTextReply(DONE),
      );
      const started = Date.now();
      const result = await run({ slow: everythingServerSpec({ timeout: 1 }) });
      expect(result.error).toBeNull();
      expect(result.reply).toBe(DONE);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(toolResults(1).map(({ content, is_error }) => ({ content, is_error }))).toEqual([
        {
          content: "slow__trigger-long-running-operation was stopped: it did not finish within 1 s",
          is_error: true,
        },
      ]);
      expect(toolResults(2)[0]?.content).toBe("Echo: after");
      expect(processesWithCwd(fake.fixture.cwd)).toEqual([]);
    },
    HANG_GUARD_MS,
  );

  it(
    "leaves no server process behind when the agent times out during a call",
    async () => {
      const seen: number[] = [];
      fake.server.enqueue(() => {
        seen.push(...processesWithCwd(fake.fixture.cwd));
        return fakeToolUseReply({ name: "slow__trigger-long-running-operation", input: { duration: 60, steps: 2 } });
      });
      const result = await run({ slow: everythingServerSpec({ timeout: 120 }) }, 3_000);
      expect(result.timedOut).toBe(true);
      expect(result.error).toBe("the agent timed out after 3 s");
      expect(seen).toHaveLength(1);
      for (const pid of seen) expect(isProcessRunning(pid)).toBe(false);
      expect(processesWithCwd(fake.fixture.cwd)).toEqual([]);
    },
    HANG_GUARD_MS,
  );

  it(
    "fails the launch with one line naming a server that cannot start, before any request",
    async () => {
      const result = await run({
        fine: everythingServerSpec(),
        broken: filesystemServerSpec(["missing-directory"]),
      });
      expect(result.error).toBe(
        `MCP server "broken": it exited (exit code 1) before it answered: Error: None of the specified directories are accessible`,
      );
      expect(fake.server.requests).toHaveLength(0);
      expect(processesWithCwd(fake.fixture.cwd)).toEqual([]);
    },
    HANG_GUARD_MS,
  );

  it(
    "is interrupted, not failed, by Ctrl-C while its servers start, and leaves none running",
    async () => {
      const stop = new AbortController();
      setTimeout(() => stop.abort("SIGINT"), 50);
      const result = await fake.run(
        { prompt: PROMPT, config: fake.config(), signal: stop.signal },
        { mcpServers: { everything: everythingServerSpec(), files: filesystemServerSpec() } },
      );
      expect(result.interrupted).toBe(true);
      expect(result.error).toBe("the agent was interrupted");
      expect(fake.server.requests).toHaveLength(0);
      expect(processesWithCwd(fake.fixture.cwd)).toEqual([]);
    },
    HANG_GUARD_MS,
  );
});
