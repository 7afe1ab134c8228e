import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixturePath } from "../../test/fixtures/agents/fixtures.ts";
import type { AgentActivity } from "../process/agent-launch-result.ts";
import { type AgentRunFixture, createAgentRunFixture } from "../test/index.ts";
import { runClaudeCodeAgent } from "./run-claude-code-agent.ts";

const FAKE_CLAUDE = fixturePath("fake-claude.sh");

let fixture: AgentRunFixture;
let log: string;
let ids: number;
beforeEach(() => {
  fixture = createAgentRunFixture();
  log = join(fixture.directory, "args.log");
  ids = 0;
});
afterEach(() => {
  delete process.env.FAKE_CLAUDE;
  delete process.env.FAKE_CLAUDE_LOG;
  fixture.remove();
});

function run(mode: string, extra: Partial<Parameters<typeof runClaudeCodeAgent>[0]> = {}) {
  process.env.FAKE_CLAUDE = mode;
  process.env.FAKE_CLAUDE_LOG = log;
  return runClaudeCodeAgent({
    spec: { preset: "claude-code", command: FAKE_CLAUDE, args: [] },
    ...fixture.context,
    newSessionId: () => `session-${++ids}`,
    ...extra,
  });
}

const launches = () => readFileSync(log, "utf8").trim().split("\n");

describe("runClaudeCodeAgent", () => {
  it("reports turns and tool calls as they come, and counts the run's own usage", async () => {
    const activity: AgentActivity[] = [];
    const verbose: string[] = [];
    const result = await run("ok", {
      onActivity: (entry) => activity.push(entry),
      onStderr: (chunk) => verbose.push(chunk),
    });
    expect(result.error).toBeNull();
    expect(result.reply).toBe("---\nsummary: done\n---\n");
    expect(result.sessionId).toBe("session-1");
    expect(result.turns).toBe(2);
    expect(activity).toEqual([{ turns: 1, tool: "Bash" }]);
    expect(verbose.join("")).toBe("Claude Code turn 1: Bash\n");
    // A new session: its totals (300 in / 30 out at $2 / $10 per million for claude-sonnet-5-5) are this run's.
    const usage = { inputTokens: 300, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0009 };
    expect(result.usage).toEqual(usage);
    expect(result.modelUsage).toEqual({ "claude-sonnet-5-5": usage });
    expect(result.sessionUsage).toEqual({ "claude-sonnet-5-5": usage });
  });

  it("keeps the session id chosen up front when the run is interrupted", async () => {
    const controller = new AbortController();
    const running = run("hang", {
      signal: controller.signal,
      onActivity: () => controller.abort("SIGINT"),
    });
    const result = await running;
    expect(result.interrupted).toBe(true);
    expect(result.sessionId).toBe("session-1");
    expect(result.usage).toBeNull();
    expect(launches()[0]).toContain("--session-id session-1");
  });

  it("starts a fresh conversation when the previous visit's session no longer exists, and says why", async () => {
    const warnings: string[] = [];
    const result = await run("missing", {
      previousVisit: { sessionId: "gone-1", transcript: null, shared: false, sessionUsage: null },
      onWarning: (message) => warnings.push(message),
    });
    expect(result.error).toBeNull();
    expect(result.sessionId).toBe("session-2");
    const reason =
      "the Claude Code session gone-1 of the role's previous visit could not be continued (No conversation found with session ID: gone-1)";
    expect(result.freshStart).toBe(reason);
    expect(warnings).toEqual([`${reason}; starting a fresh conversation from the whole thread`]);
    expect(launches()).toEqual([
      "-p --output-format stream-json --verbose --session-id session-1 --resume gone-1 --fork-session",
      "-p --output-format stream-json --verbose --session-id session-2",
    ]);
    expect(result.command?.includes("--resume")).toBe(false);
    // A new session: counted whole.
    expect(result.usage?.inputTokens).toBe(300);
  });

  it("does not start afresh on a retry, which sends only the problem", async () => {
    const result = await run("missing", {
      attempt: 1,
      previousVisit: { sessionId: "gone-1", transcript: null, shared: false },
    });
    expect(result.error).toBe("Claude Code failed during execution: No conversation found with session ID: gone-1");
    expect(result.freshStart).toBeUndefined();
    expect(launches()).toHaveLength(1);
  });

  it("keeps the tool calls Claude Code refused and warns about them", async () => {
    const warnings: string[] = [];
    const result = await run("denied", { onWarning: (message) => warnings.push(message) });
    expect(result.error).toBeNull();
    expect(result.permissionDenials).toEqual([
      { tool: "Bash", toolUseId: "toolu_1", input: { command: "rm -rf build" } },
      { tool: "Write", toolUseId: "toolu_2", input: { file_path: "/etc/hosts", content: "x" } },
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toStartWith("Claude Code was refused 2 tool calls for lack of permission: Bash(rm -rf build)");
  });
});
