import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Config, configSchema } from "@uwf/protocol";
import { type AgentRunFixture, createAgentRunFixture } from "../test/agent-run-fixture.ts";
import {
  fakeChatErrorReply,
  fakeChatStreamErrorReply,
  fakeChatTextReply,
  fakeChatToolCallReply,
} from "../test/fake-chat-replies.ts";
import { type FakeOpenaiServer, startFakeOpenaiServer } from "../test/fake-openai-server.ts";
import { type RunOpenaiAgentOptions, runOpenaiAgent } from "./run-openai-agent.ts";

const KEY_VARIABLE = "UWF_TEST_FAKE_OPENAI_KEY";
const KEY = "test-key-not-secret";

let fixture: AgentRunFixture;
let server: FakeOpenaiServer;
beforeEach(() => {
  fixture = createAgentRunFixture({ prefix: "uwf-openai-agent-" });
  server = startFakeOpenaiServer({ apiKey: KEY });
});
afterEach(async () => {
  const rejected = server.rejectedRequests().map((request) => request.rejection);
  await server.close();
  fixture.remove();
  expect(rejected).toEqual([]);
});

function config(model: Record<string, unknown> = {}): Config {
  return configSchema.parse({
    providers: { local: { type: "openai", baseUrl: server.url, apiKeyEnv: KEY_VARIABLE } },
    models: { llama: { provider: "local", model: "llama-3.3-70b", prices: { input: 1, output: 2 }, ...model } },
  });
}

function run(options: Partial<RunOpenaiAgentOptions> = {}) {
  return runOpenaiAgent({
    spec: { builtin: "openai", model: "llama" },
    alias: "local",
    ...fixture.context,
    prompt: "# Role\nYou write.\n\n# Task\nWrite hello.txt",
    timeoutMs: 20_000,
    environment: { [KEY_VARIABLE]: KEY },
    maxRetries: 2,
    config: config(),
    ...options,
  });
}

type ChatBody = { messages: Array<Record<string, unknown>>; tools?: unknown[]; max_tokens?: number };
const bodyOf = (index: number) => server.completionRequests()[index]?.body as ChatBody;

describe("runOpenaiAgent", () => {
  it("runs the tool loop on the Chat Completions API: tools change files, their results go back as tool messages, usage is priced", async () => {
    server.enqueue(
      fakeChatToolCallReply([{ name: "write_file", arguments: { path: "hello.txt", content: "hello\n" } }], {
        usage: { prompt_tokens: 1_000, completion_tokens: 100, cached_tokens: 400 },
      }),
      fakeChatTextReply("---\nsummary: wrote it\n---\nDone.", { prompt_tokens: 1_200, completion_tokens: 50 }),
    );
    const result = await run();
    expect(result.error).toBeNull();
    expect(result.reply).toBe("---\nsummary: wrote it\n---\nDone.");
    expect(readFileSync(join(fixture.cwd, "hello.txt"), "utf8")).toBe("hello\n");
    // 600 + 1,200 uncached at $1, 150 out at $2, 400 cached at a tenth of the input price.
    expect(result.usage).toEqual({
      inputTokens: 1_800,
      outputTokens: 150,
      cacheReadTokens: 400,
      cacheWriteTokens: 0,
      costUsd: 0.00214,
    });
    const first = bodyOf(0);
    expect(first.messages[0]).toMatchObject({ role: "system" });
    expect(String(first.messages[0]?.content)).toContain("You write.");
    expect(first.messages[1]).toEqual({ role: "user", content: "# Task\nWrite hello.txt" });
    expect(first.max_tokens).toBe(16_384);
    expect(first).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const second = bodyOf(1);
    expect(second.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second.messages[3]).toMatchObject({ role: "tool", content: expect.stringContaining("hello.txt") });
    expect(result.transcript?.length).toBe(4);
  });

  it("retries a 429, honouring retry-after, and a server error mid-stream", async () => {
    server.enqueue(
      fakeChatErrorReply("rate_limit_exceeded", { retryAfter: "0.2" }),
      fakeChatStreamErrorReply("server_error", { text: "---\nsum" }),
      fakeChatTextReply("---\nsummary: ok\n---\n"),
    );
    const lines: string[] = [];
    const result = await run({ onStderr: (line) => lines.push(line) });
    expect(result.error).toBeNull();
    expect(result.reply).toBe("---\nsummary: ok\n---\n");
    expect(server.completionRequests()).toHaveLength(3);
    expect(lines.join("")).toContain(
      "turn 1: 429 requests: Rate limit reached for requests (attempt 1 of 3); retrying in 0.2 s",
    );
    expect(lines.join("")).toContain("server_error mid-stream (after HTTP 200)");
  });

  it("fails cleanly when the request is over the server's context window", async () => {
    await server.close();
    server = startFakeOpenaiServer({ apiKey: KEY, contextWindow: 1_000 });
    const result = await run({ config: config({ maxTokens: 900 }) });
    expect(result.error).toContain(
      "the request is over llama-3.3-70b's context window: 400 context_length_exceeded: This model's maximum context length is 1000 tokens",
    );
    expect(result.error).toContain("set models.NAME.contextWindow");
    expect(server.completionRequests()).toHaveLength(1);
  });

  it("continues the stored conversation on a later visit, sending the continuation prompt after it", async () => {
    server.enqueue(fakeChatTextReply("---\nsummary: first\n---\n"), fakeChatTextReply("---\nsummary: second\n---\n"));
    const first = await run();
    expect(first.error).toBeNull();
    const second = await run({
      previousVisit: { sessionId: null, transcript: first.transcript ?? null, shared: false },
      continuationPrompt: "# Role\nYou write.\n\n# Task\nSince then: the reviewer asked for more.",
    });
    expect(second.error).toBeNull();
    expect(second.continued).toBe(true);
    expect(bodyOf(1).messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(bodyOf(1).messages[2]).toEqual({ role: "assistant", content: "---\nsummary: first\n---\n" });
    expect(String(bodyOf(1).messages[3]?.content)).toContain("the reviewer asked for more");
  });

  it("continues an answer cut off at max_tokens in the next turn", async () => {
    const long = `---\nsummary: ${"x".repeat(60)}\n---\n`;
    server.enqueue(fakeChatTextReply(long), fakeChatTextReply("tail"));
    const result = await run({ config: config({ maxTokens: 10 }) });
    expect(result.error).toBeNull();
    expect(result.reply).toBe(`${long.slice(0, 40)}tail`);
    expect(bodyOf(1).messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
  });

  it("refuses a model on a provider of another type, and says which key is missing", async () => {
    const anthropicModel = configSchema.parse({
      providers: { claude: { type: "anthropic", apiKeyEnv: "X_KEY" } },
      models: { sonnet: { provider: "claude", model: "claude-sonnet-5-5" } },
    });
    const wrongType = await run({ spec: { builtin: "openai", model: "sonnet" }, config: anthropicModel });
    expect(wrongType.error).toContain('provider "claude" of type anthropic');
    const noKey = await run({ environment: {} });
    expect(noKey.error).toContain(`no API key for provider "local": ${KEY_VARIABLE} is not set`);
    expect(server.requests).toHaveLength(0);
  });

  it("takes the agent's own baseUrl and apiKeyEnv for a plain model name, and sends max_completion_tokens only to OpenAI's API", async () => {
    server.enqueue(fakeChatTextReply("---\nsummary: ok\n---\n"));
    const result = await run({
      spec: { builtin: "openai", model: "qwen3", baseUrl: server.url, apiKeyEnv: "OTHER_KEY" },
      environment: { OTHER_KEY: KEY },
      config: configSchema.parse({}),
    });
    expect(result.error).toBeNull();
    expect(bodyOf(0)).toMatchObject({ model: "qwen3", max_tokens: 16_384 });
    expect(result.usage?.costUsd).toBe(0);
  });
});
