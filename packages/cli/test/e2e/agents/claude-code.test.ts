import { beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fakeTextReply, fakeToolUseReply, startFakeAnthropicServer } from "@uwf/agent-kit/test";
import { shownThreadSchema, stepResultSchema } from "@uwf/protocol";
import { runOfStep } from "../../helpers/cas-nodes.ts";
import { claudeCodeCli, useClaudeCodeHome } from "../../helpers/claude-code-cli.ts";
import { fixtureWorkflow } from "../../helpers/temp-home.ts";

/** The real `claude` CLI, installed for these tests on first use (see claude-code-cli.ts). */
const CLAUDE = claudeCodeCli();
const WORKFLOW = fixtureWorkflow("model-review");
/** Named in config.yaml so the prices are known whatever Claude Code's default: $4 in, $20 out, $0.2 cache read per million. */
const MODEL = "claude-opus-5-5";

const { temp, server, env } = useClaudeCodeHome();

beforeEach(() => {
  temp.writeConfig(
    `defaultAgent: claude\nagents:\n  claude: { preset: claude-code, command: "${CLAUDE}", model: ${MODEL} }\n`,
  );
});

/** The user and assistant texts of an agent-turn request, without Claude Code's own reminders. */
function conversation(request: { body: unknown } | undefined): string {
  const messages =
    (request?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined)?.messages ?? [];
  return JSON.stringify(messages.filter((message) => message.role === "user" || message.role === "assistant"));
}

describe("the claude-code preset with the real claude CLI against the fake Messages API", () => {
  it("is installed", () => {
    expect(existsSync(CLAUDE)).toBe(true);
    const version = Bun.spawnSync([CLAUDE, "--version"], { env: { ...process.env, ...env() } });
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

    const first = await temp.uwf(["step", thread, "-n", "2", "--json"], { env: env() });
    expect(first.stderr).toBe("");
    expect(first.exitCode).toBe(0);
    const steps = stepResultSchema.parse(first.json()).steps;
    expect(steps.map((step) => step.output)).toEqual([
      { summary: "wrote hello.txt with Write" },
      { $status: "rejected", comments: "add a second line" },
    ]);
    expect(readFileSync(file, "utf8")).toBe("hello from claude\n");
    const writerRun = await runOfStep(temp, steps[0]?.address ?? "");
    expect(writerRun.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(writerRun.command?.slice(1, 5)).toEqual(["-p", "--output-format", "stream-json", "--verbose"]);
    // The session id was chosen up front, so an interrupted run would have kept it too.
    expect(writerRun.command?.[(writerRun.command?.indexOf("--session-id") ?? -2) + 1]).toBe(writerRun.sessionId ?? "");
    expect(writerRun.attempts[0]?.turns).toBe(2);
    expect(writerRun.usage?.inputTokens).toBeGreaterThan(0);
    expect(writerRun.usage?.costUsd).toBeGreaterThan(0);
    const toolResult = conversation(server.scriptedRequests()[1]);
    expect(toolResult).toContain("tool_result");

    // The writer's next visit resumes its session (as a fork, so the recorded session stays as it was):
    // Claude Code sends the earlier conversation.
    const second = await temp.uwf(["step", thread, "--json"], { env: env() });
    expect(second.exitCode).toBe(0);
    const resumedStep = stepResultSchema.parse(second.json()).steps[0];
    expect(resumedStep?.output).toEqual({ summary: "second visit" });
    const resumedRun = await runOfStep(temp, resumedStep?.address ?? "");
    expect(resumedRun.command).toContain("--resume");
    expect(resumedRun.command).toContain(writerRun.sessionId ?? "");
    expect(resumedRun.command).toContain("--fork-session");
    expect(resumedRun.sessionId).not.toBe(writerRun.sessionId);
    const resumedRequest = conversation(server.scriptedRequests()[3]);
    expect(resumedRequest).toContain("wrote hello.txt with Write");
    expect(resumedRequest).toContain("Address the review: add a second line");
    // The resumed session is sent only the steps since its last visit, not the history it has.
    expect(resumedRequest).toContain("This conversation holds the thread up to there");
    expect(resumedRequest).not.toContain("## Step 1: writer");

    // A thread forked from the reviewer's step continues the writer's first session as it was after step 1,
    // without the other branch's later visit.
    const fork = await temp.uwf(["fork", steps[1]?.address ?? "", "--json"]);
    expect(fork.exitCode).toBe(0);
    const forked = (fork.json() as { thread: string }).thread;
    server.enqueue(fakeTextReply("---\nsummary: in the fork\n---\n"));
    const inFork = await temp.uwf(["step", forked, "--json"], { env: env() });
    expect(inFork.exitCode).toBe(0);
    const forkRun = await runOfStep(temp, stepResultSchema.parse(inFork.json()).steps[0]?.address ?? "");
    expect(forkRun.command).toContain("--fork-session");
    expect(forkRun.command).toContain(writerRun.sessionId ?? "");
    expect(forkRun.sessionId).not.toBe(writerRun.sessionId);
    expect(conversation(server.scriptedRequests()[4])).toContain("wrote hello.txt with Write");
    expect(conversation(server.scriptedRequests()[4])).not.toContain("second visit");
    expect(JSON.stringify(server.requests)).not.toContain("test-key-not-secret");
  }, 120_000);

  it("counts each visit's and each retry's own cost, not Claude Code's running total of the session", async () => {
    const usage = (input_tokens: number, output_tokens: number, cache_read_input_tokens = 0) => ({
      input_tokens,
      output_tokens,
      cache_read_input_tokens,
      cache_creation_input_tokens: 0,
    });
    server.enqueue(
      // Step 1, writer: 1000 in, 100 out = $0.0040 + $0.0020.
      fakeTextReply("---\nsummary: first draft\n---\n", usage(1000, 100)),
      // Step 2, reviewer: 2000 in, 200 out = $0.0080 + $0.0040.
      fakeTextReply("---\n$status: rejected\ncomments: shorter\n---\n", usage(2000, 200)),
      // Step 3, writer in its resumed session: an invalid reply (3000 in, 300 out, 1000 from the cache
      // = $0.0120 + $0.0060 + $0.0002), then the retry in the same conversation (500 in, 50 out, 4000
      // from the cache = $0.0020 + $0.0010 + $0.0008).
      fakeTextReply("no frontmatter here", usage(3000, 300, 1000)),
      fakeTextReply("---\nsummary: shorter draft\n---\n", usage(500, 50, 4000)),
    );
    const started = await temp.uwf(["start", WORKFLOW, "-p", "Write a draft", "--json"]);
    const thread = (started.json() as { thread: string }).thread;
    const stepped = await temp.uwf(["step", thread, "-n", "3", "--json"], { env: env() });
    expect(stepped.stderr).toBe("");
    expect(stepped.exitCode).toBe(0);
    const steps = stepResultSchema.parse(stepped.json()).steps;
    expect(steps.map((step) => step.output)).toEqual([
      { summary: "first draft" },
      { $status: "rejected", comments: "shorter" },
      { summary: "shorter draft" },
    ]);

    const [writer, reviewer, revision] = await Promise.all(steps.map((step) => runOfStep(temp, step.address)));
    expect(writer?.usage).toEqual({
      inputTokens: 1000,
      outputTokens: 100,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.006,
    });
    expect(reviewer?.usage?.costUsd).toBe(0.012);
    // The resumed visit: both attempts, each counted alone.
    expect(revision?.attempts.map((attempt) => attempt.modelUsage)).toEqual([
      {
        [MODEL]: { inputTokens: 3000, outputTokens: 300, cacheReadTokens: 1000, cacheWriteTokens: 0, costUsd: 0.0182 },
      },
      { [MODEL]: { inputTokens: 500, outputTokens: 50, cacheReadTokens: 4000, cacheWriteTokens: 0, costUsd: 0.0038 } },
    ]);
    expect(revision?.usage).toEqual({
      inputTokens: 3500,
      outputTokens: 350,
      cacheReadTokens: 5000,
      cacheWriteTokens: 0,
      costUsd: 0.022,
    });
    // Claude Code's own figures are running totals of the writer's session: $0.0242, then $0.0280.
    expect(revision?.attempts.map((attempt) => attempt.sessionUsage?.[MODEL]?.costUsd)).toEqual([0.0242, 0.028]);
    expect(revision?.command).toContain("--resume");
    expect(revision?.command).toContain(writer?.sessionId ?? "");

    // The thread: $0.006 + $0.012 + $0.022, where Claude Code's totals would have added up to $0.0702.
    const record = shownThreadSchema.parse((await temp.uwf(["show", thread, "--json"])).json());
    expect(record.usage).toEqual({
      inputTokens: 6500,
      outputTokens: 650,
      cacheReadTokens: 5000,
      cacheWriteTokens: 0,
      costUsd: 0.04,
    });
  }, 120_000);

  it("fails the step with what Claude Code said, not 'failed (success)', when the API refuses the key", async () => {
    const refusing = startFakeAnthropicServer({ apiKey: "another-key" });
    try {
      const started = await temp.uwf(["start", WORKFLOW, "-p", "Write a draft", "--json"]);
      const thread = (started.json() as { thread: string }).thread;
      const failed = await temp.uwf(["step", thread], {
        env: { ...env(), ANTHROPIC_BASE_URL: refusing.url, CLAUDE_CODE_MAX_RETRIES: "0" },
      });
      expect(failed.exitCode).toBe(1);
      expect(failed.stderr).toContain(
        "writer: Claude Code reported an error (API status 401): Invalid API key · Fix external API key",
      );
      expect(failed.stderr).not.toContain("(success)");
    } finally {
      await refusing.close();
    }
  }, 120_000);

  it("starts a fresh conversation when the role's session is gone, says so, and goes on", async () => {
    server.enqueue(
      fakeTextReply("---\nsummary: first draft\n---\n"),
      fakeTextReply("---\n$status: rejected\ncomments: shorter\n---\n"),
      fakeTextReply("---\nsummary: shorter draft\n---\n", {
        input_tokens: 1000,
        output_tokens: 100,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
      }),
    );
    const started = await temp.uwf(["start", WORKFLOW, "-p", "Write a draft", "--json"]);
    const thread = (started.json() as { thread: string }).thread;
    const first = await temp.uwf(["step", thread, "-n", "2", "--json"], { env: env() });
    expect(first.exitCode).toBe(0);
    const writerSession = (await runOfStep(temp, stepResultSchema.parse(first.json()).steps[0]?.address ?? ""))
      .sessionId;

    // Another machine: Claude Code's config directory (and its sessions) is not the one step 1 used.
    const elsewhere = { ...env(), CLAUDE_CONFIG_DIR: join(temp.home, "..", "other-claude-config") };
    const third = await temp.uwf(["step", thread, "--json"], { env: elsewhere });
    expect(third.exitCode).toBe(0);
    const step = stepResultSchema.parse(third.json()).steps[0];
    expect(step?.output).toEqual({ summary: "shorter draft" });
    const run = await runOfStep(temp, step?.address ?? "");
    const reason = `the Claude Code session ${writerSession} of the role's previous visit could not be continued (No conversation found with session ID: ${writerSession})`;
    expect(third.stderr).toBe(`warning: ${reason}; starting a fresh conversation from the whole thread\n`);
    expect(run.attempts).toHaveLength(1);
    expect(run.attempts[0]?.freshStart).toBe(reason);
    expect(run.command).not.toContain("--resume");
    expect(run.sessionId).not.toBe(writerSession);
    // A session that cannot be resumed gets the whole thread: every step, not the steps since.
    const request = server.scriptedRequests()[2];
    expect(conversation(request)).not.toContain('"role":"assistant"');
    expect(conversation(request)).toContain("Address the review: shorter");
    expect(conversation(request)).toContain("## Step 1: writer (you)");
    expect(conversation(request)).toContain("first draft");
    expect(conversation(request)).not.toContain("left out here");
    // A new session: its totals are the run's own.
    expect(run.usage?.costUsd).toBe(0.006);
  }, 120_000);
});
