import { beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "@uwf/cas/test";
import type { AnthropicAgentSpec } from "@uwf/protocol";
import { liveProcessesInGroup } from "../../test/fixtures/agents/fixtures.ts";
import { BUILT_IN_TOOL_NAMES } from "../test/built-in-tool-names.ts";
import { FAKE_KEY as KEY, FAKE_KEY_VARIABLE as KEY_VARIABLE, useFakeAnthropicRun } from "../test/fake-anthropic-run.ts";
import { fakeErrorReply, fakeTextReply, fakeToolUseReply } from "../test/index.ts";
import type { RunAnthropicAgentOptions } from "./run-anthropic-agent.ts";

const PROMPT =
  "# Output format\n\nStart with frontmatter.\n\n# Your role: writer\n\nYou write.\n\n# Task\n\nWrite notes.\n\n# Your next step\n\nGo.\n";

const fake = useFakeAnthropicRun("uwf-anthropic-test-");
let workspace: string;
let home: string;

beforeEach(() => {
  ({ cwd: workspace, home } = fake.fixture);
});

function config(extra: Record<string, unknown> = {}) {
  return fake.config({ prices: { input: 3, output: 15 } }, extra);
}

function run(overrides: Partial<RunAnthropicAgentOptions> = {}, spec: Partial<AnthropicAgentSpec> = {}) {
  return fake.run({ prompt: PROMPT, config: config(), ...overrides }, spec);
}

/** The tool_result blocks of a recorded request's last message. */
function toolResults(requestIndex: number): Array<{ content: string; is_error?: boolean }> {
  const body = fake.server.scriptedRequests()[requestIndex]?.body as { messages: Array<{ content: unknown[] }> };
  return body.messages.at(-1)?.content as Array<{ content: string; is_error?: boolean }>;
}

describe("runAnthropicAgent", () => {
  it("runs the tool loop: the model writes a file and runs a command, then answers", async () => {
    fake.server.enqueue(
      fakeToolUseReply(
        [
          { name: "write_file", input: { path: "notes/todo.md", content: "- ship it\n" } },
          { name: "run_command", input: { command: "ls notes > listing.txt && echo listed" } },
        ],
        { text: "Writing.", usage: { input_tokens: 1_000, output_tokens: 100 } },
      ),
      fakeTextReply("---\nsummary: wrote notes\n---\n\nDone.", { input_tokens: 2_000, output_tokens: 50 }),
    );
    const result = await run();
    expect(result.error).toBeNull();
    expect(result.exitCode).toBe(0);
    expect(result.reply).toBe("---\nsummary: wrote notes\n---\n\nDone.");
    expect(readFileSync(join(workspace, "notes/todo.md"), "utf8")).toBe("- ship it\n");
    expect(readFileSync(join(workspace, "listing.txt"), "utf8")).toBe("todo.md\n");
    // 3000 input tokens at $3 and 150 output tokens at $15 per million.
    expect(result.usage).toEqual({
      inputTokens: 3_000,
      outputTokens: 150,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.01125,
    });

    const [first, second] = fake.server.scriptedRequests();
    const firstBody = first?.body as Record<string, unknown>;
    expect(firstBody.model).toBe("claude-sonnet-5-5");
    expect(firstBody.stream).toBe(true);
    expect(JSON.stringify(firstBody.system)).toContain("# Your role: writer");
    expect(JSON.stringify(firstBody.system)).not.toContain("# Task");
    expect(JSON.stringify(firstBody.messages)).toContain("# Task\\n\\nWrite notes.");
    expect((firstBody.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(BUILT_IN_TOOL_NAMES);
    expect(first?.headers["x-api-key"] ?? first?.headers.authorization).toBe("[redacted]");
    expect(JSON.stringify(fake.server.requests)).not.toContain(KEY);
    const results = toolResults(1);
    expect(results.map((block) => block.content)).toEqual(["wrote 10 bytes to notes/todo.md", "exit code 0\nlisted"]);
    expect(second?.status).toBe(200);

    const transcript = result.transcript as Array<{ role: string; usage?: unknown }>;
    expect(transcript.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(transcript[1]?.usage).toMatchObject({ inputTokens: 1_000, outputTokens: 100 });
  });

  it("tells onStdout what the model says each turn and onStderr its turns and tool calls, as they come", async () => {
    fake.server.enqueue(
      fakeToolUseReply([{ name: "write_file", input: { path: "a.txt", content: "a" } }], { text: "Writing a." }),
      fakeTextReply("---\nsummary: wrote a\n---\n\nDone."),
    );
    const stdout: string[] = [];
    const stderr: string[] = [];
    const result = await run({ onStdout: (chunk) => stdout.push(chunk), onStderr: (chunk) => stderr.push(chunk) });
    expect(result.error).toBeNull();
    expect(stdout).toEqual(["Writing a.\n", "---\nsummary: wrote a\n---\n\nDone.\n"]);
    expect(stderr.join("")).toContain("write_file");
  });

  it("shows no tool result the store's password, and runs commands without the store's variables", async () => {
    const password = "store-test-password";
    const url = `postgres://uwf:${password}@127.0.0.1:9/uwf`;
    writeFileSync(join(workspace, "notes.txt"), `the store is ${url}\n`);
    fake.server.enqueue(
      fakeToolUseReply([{ name: "run_command", input: { command: "cat notes.txt; env | grep '^PG' | wc -l" } }]),
      fakeTextReply("---\nsummary: read it\n---\n\nDone."),
    );
    const saved = process.env.PGPASSWORD;
    process.env.PGPASSWORD = password;
    try {
      const result = await run({ config: config({ store: url }) });
      expect(result.error).toBeNull();
    } finally {
      if (saved === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = saved;
    }
    expect(toolResults(1).map((block) => block.content)).toEqual([
      "exit code 0\nthe store is postgres://uwf:[redacted]@127.0.0.1:9/uwf\n0",
    ]);
    expect(JSON.stringify(fake.server.requests)).not.toContain(password);
  });

  it("refuses paths outside the working directory, through .. or a symlink", async () => {
    const outside = join(fake.fixture.directory, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.txt"), "secret");
    symlinkSync(outside, join(workspace, "link"));
    fake.server.enqueue(
      fakeToolUseReply([
        { name: "write_file", input: { path: "../outside/escaped.txt", content: "x" } },
        { name: "write_file", input: { path: "link/escaped.txt", content: "x" } },
        { name: "read_file", input: { path: join(outside, "secret.txt") } },
        { name: "read_file", input: { path: "link/secret.txt" } },
        { name: "edit_file", input: { path: "link/secret.txt", old_text: "secret", new_text: "leaked" } },
        { name: "list_files", input: { path: "/" } },
      ]),
      fakeTextReply("---\nsummary: tried\n---\n"),
    );
    const result = await run();
    expect(result.error).toBeNull();
    const results = toolResults(1);
    expect(results).toHaveLength(6);
    for (const block of results) {
      expect(block.is_error).toBe(true);
      expect(block.content).toStartWith("refused:");
    }
    expect(results[1]?.content).toContain("leads through a symlink outside");
    expect(existsSync(join(outside, "escaped.txt"))).toBe(false);
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("secret");
  });

  it("fails with a clear message when the model is still calling tools at maxTurns", async () => {
    for (let turn = 0; turn < 3; turn++) fake.server.enqueue(fakeToolUseReply({ name: "list_files", input: {} }));
    const result = await run({}, { maxTurns: 3 });
    expect(result.exitCode).toBeNull();
    expect(result.error).toBe(
      "the agent reached maxTurns (3 model turns) without a final answer; raise maxTurns on the agent or the model in config.yaml",
    );
    expect(fake.server.scriptedRequests()).toHaveLength(3);
    expect(result.usage?.inputTokens).toBe(30);
  });

  it("retries a 429 and a 529 (honouring retry-after) and then succeeds", async () => {
    fake.server.enqueue(
      fakeErrorReply("rate_limit_error", { retryAfter: "0.01" }),
      fakeErrorReply("overloaded_error", { retryAfter: "0.01" }),
      fakeTextReply("---\nsummary: ok\n---\n"),
    );
    const result = await run();
    expect(result.error).toBeNull();
    expect(result.reply).toBe("---\nsummary: ok\n---\n");
    expect(fake.server.requests.map((request) => request.status)).toEqual([429, 529, 200]);
  });

  it("gives up after the bounded retries with the API's error", async () => {
    fake.server.enqueue(
      fakeErrorReply("api_error", { retryAfter: "0.01" }),
      fakeErrorReply("api_error", { retryAfter: "0.01" }),
    );
    const result = await run({ maxRetries: 1 });
    expect(result.error).toBe(
      `the model API (provider "fake" at ${fake.server.url}, model claude-sonnet-5-5) failed after 2 attempts: 500 api_error: Internal server error`,
    );
    expect(fake.server.requests).toHaveLength(2);
  });

  it("fails at once on a refused key, telling how to set it", async () => {
    const result = await run({ environment: { [KEY_VARIABLE]: "wrong-key" } });
    expect(fake.server.requests.map((request) => request.status)).toEqual([401]);
    expect(result.error).toBe(
      `the API key in ${KEY_VARIABLE} was refused by provider "fake" at ${fake.server.url} (401 authentication_error: invalid x-api-key); set it with \`export ${KEY_VARIABLE}=…\` or run \`uwf setup\``,
    );
    expect(result.reply).toBe("");
  });

  it("fails before any request when no key is set", async () => {
    const result = await run({ environment: {} });
    expect(result.error).toBe(
      `no API key for provider "fake": ${KEY_VARIABLE} is not set; set it with \`export ${KEY_VARIABLE}=…\` or run \`uwf setup\``,
    );
    expect(fake.server.requests).toHaveLength(0);
  });

  it("reads the key from .env in the uwf home when the variable is not set", async () => {
    writeFileSync(join(home, ".env"), `${KEY_VARIABLE}="${KEY}"\n`);
    fake.server.enqueue(fakeTextReply("---\nsummary: ok\n---\n"));
    const result = await run({ environment: {} });
    expect(result.error).toBeNull();
  });

  it("continues the previous visit's conversation", async () => {
    fake.server.enqueue(
      fakeToolUseReply({ name: "list_files", input: {} }),
      fakeTextReply("---\nsummary: first\n---\n"),
    );
    const first = await run();
    expect(first.error).toBeNull();
    fake.server.enqueue(fakeTextReply("---\nsummary: second\n---\n"));
    const second = await run({
      prompt: PROMPT.replace("Go.", "Address the review."),
      previousVisit: { sessionId: null, transcript: first.transcript ?? null, shared: false },
    });
    expect(second.reply).toBe("---\nsummary: second\n---\n");
    const body = fake.server.scriptedRequests()[2]?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(JSON.stringify(body.messages[3]?.content)).toContain("summary: first");
    expect(JSON.stringify(body.messages[4]?.content)).toContain("Address the review.");
    expect((second.transcript as unknown[]).length).toBe(6);
  });

  it("stops a running command and reports a timeout", async () => {
    fake.server.enqueue(fakeToolUseReply({ name: "run_command", input: { command: "echo $$ > leader; sleep 30" } }));
    const result = await run({ timeoutMs: 700, killGraceMs: 100 });
    expect(result.timedOut).toBe(true);
    expect(result.error).toBe("the agent timed out after 0.7 s");
    const leader = Number(readFileSync(join(workspace, "leader"), "utf8"));
    await waitFor(() => liveProcessesInGroup(leader).length === 0, { what: `process group ${leader} ending` });
  });

  it("reports an interrupt", async () => {
    const controller = new AbortController();
    fake.server.enqueue(fakeToolUseReply({ name: "run_command", input: { command: "sleep 30" } }));
    setTimeout(() => controller.abort(), 300);
    const result = await run({ signal: controller.signal, killGraceMs: 100 });
    expect(result.interrupted).toBe(true);
    expect(result.error).toBe("the agent was interrupted");
  });
});
