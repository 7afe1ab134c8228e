import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  type FakeAnthropicServer,
  type FakeRequestView,
  fakeTextReply,
  fakeToolUseReply,
  startFakeAnthropicServer,
} from "@uwf/agent-kit/testing";
import { agentRunNodeSchema, stepResultSchema, threadStepNodeSchema } from "@uwf/protocol";
import { createTempHome, FIXTURES, type TempHome } from "../helpers/temp-home.ts";

/** The real `claude` CLI, installed from npm as a devDependency of this package. */
const CLAUDE = resolve(import.meta.dir, "../../node_modules/.bin/claude");
const WORKFLOW = join(FIXTURES, "workflows/model-review.yaml");

let temp: TempHome;
let server: FakeAnthropicServer;
let env: Record<string, string>;

/** Claude Code's agent loop sends its tools; side requests (titles, quota checks) get the default reply. */
const isAgentTurn = (request: FakeRequestView) => {
  const tools = (request.body as { tools?: unknown[] } | null)?.tools;
  return Array.isArray(tools) && tools.length > 0;
};

beforeEach(() => {
  temp = createTempHome();
  server = startFakeAnthropicServer({ isScripted: isAgentTurn });
  temp.writeConfig(`defaultAgent: claude\nagents:\n  claude: { preset: claude-code, command: "${CLAUDE}" }\n`);
  env = {
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: "test-key-not-secret",
    CLAUDE_CONFIG_DIR: join(temp.home, "..", "claude-config"),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
  };
});
afterEach(async () => {
  await server.close();
  temp.cleanup();
});

async function runOf(stepAddress: string) {
  const step = threadStepNodeSchema.parse((await temp.uwf(["cas", "get", stepAddress])).json());
  return agentRunNodeSchema.parse((await temp.uwf(["cas", "get", step.run])).json());
}

/** The user and assistant texts of an agent-turn request, without Claude Code's own reminders. */
function conversation(request: { body: unknown } | undefined): string {
  const messages =
    (request?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined)?.messages ?? [];
  return JSON.stringify(messages.filter((message) => message.role === "user" || message.role === "assistant"));
}

describe("the claude-code preset with the real claude CLI against the fake Messages API", () => {
  it("is installed", () => {
    expect(existsSync(CLAUDE)).toBe(true);
    const version = Bun.spawnSync([CLAUDE, "--version"], { env: { ...process.env, ...env } });
    expect(version.stdout.toString()).toContain("Claude Code");
  });

  it("writes a file with Claude Code's Write tool, extracts the output, resumes the session and forks it", async () => {
    const file = join(temp.work, "hello.txt");
    server.enqueue(
      // Step 1, writer: Claude Code's own Write tool, then the final reply.
      fakeToolUseReply({ name: "Write", input: { file_path: file, content: "hello from claude\n" } }),
      fakeTextReply("---\nsummary: wrote hello.txt with Write\n---\n\nThe file is there."),
      // Step 2, reviewer.
      fakeTextReply("---\n$status: rejected\ncomments: add a second line\n---\n"),
      // Step 3, writer again, in its resumed session.
      fakeTextReply("---\nsummary: second visit\n---\n"),
    );
    const started = await temp.uwf(["start", WORKFLOW, "-p", "Create hello.txt", "--json"]);
    const thread = (started.json() as { thread: string }).thread;

    const first = await temp.uwf(["step", thread, "-n", "2", "--json"], { env });
    expect(first.stderr).toBe("");
    expect(first.exitCode).toBe(0);
    const steps = stepResultSchema.parse(first.json()).steps;
    expect(steps.map((step) => step.output)).toEqual([
      { summary: "wrote hello.txt with Write" },
      { $status: "rejected", comments: "add a second line" },
    ]);
    expect(readFileSync(file, "utf8")).toBe("hello from claude\n");
    const writerRun = await runOf(steps[0]?.address ?? "");
    expect(writerRun.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(writerRun.command?.slice(1, 4)).toEqual(["-p", "--output-format", "json"]);
    expect(writerRun.usage?.inputTokens).toBeGreaterThan(0);
    expect(writerRun.usage?.costUsd).toBeGreaterThan(0);
    const toolResult = conversation(server.scriptedRequests()[1]);
    expect(toolResult).toContain("tool_result");

    // The writer's next visit resumes its session (as a fork, so the recorded session stays as it was):
    // Claude Code sends the earlier conversation.
    const second = await temp.uwf(["step", thread, "--json"], { env });
    expect(second.exitCode).toBe(0);
    const resumedStep = stepResultSchema.parse(second.json()).steps[0];
    expect(resumedStep?.output).toEqual({ summary: "second visit" });
    const resumedRun = await runOf(resumedStep?.address ?? "");
    expect(resumedRun.command).toContain("--resume");
    expect(resumedRun.command).toContain(writerRun.sessionId ?? "");
    expect(resumedRun.command).toContain("--fork-session");
    expect(resumedRun.sessionId).not.toBe(writerRun.sessionId);
    const resumedRequest = conversation(server.scriptedRequests()[3]);
    expect(resumedRequest).toContain("wrote hello.txt with Write");
    expect(resumedRequest).toContain("Address the review: add a second line");

    // A thread forked from the reviewer's step continues the writer's first session as it was after step 1,
    // without the other branch's later visit.
    const fork = await temp.uwf(["fork", steps[1]?.address ?? "", "--json"]);
    expect(fork.exitCode).toBe(0);
    const forked = (fork.json() as { thread: string }).thread;
    server.enqueue(fakeTextReply("---\nsummary: in the fork\n---\n"));
    const inFork = await temp.uwf(["step", forked, "--json"], { env });
    expect(inFork.exitCode).toBe(0);
    const forkRun = await runOf(stepResultSchema.parse(inFork.json()).steps[0]?.address ?? "");
    expect(forkRun.command).toContain("--fork-session");
    expect(forkRun.command).toContain(writerRun.sessionId ?? "");
    expect(forkRun.sessionId).not.toBe(writerRun.sessionId);
    expect(conversation(server.scriptedRequests()[4])).toContain("wrote hello.txt with Write");
    expect(conversation(server.scriptedRequests()[4])).not.toContain("second visit");
    expect(JSON.stringify(server.requests)).not.toContain("test-key-not-secret");
  }, 120_000);
});
