import { describe, expect, it } from "bun:test";
import type { AnthropicAgentSpec } from "@uwf/protocol";
import { FAKE_KEY as KEY, FAKE_KEY_VARIABLE as KEY_VARIABLE, useFakeAnthropicRun } from "../test/fake-anthropic-run.ts";
import {
  estimateFakeInputTokens,
  fakeErrorReply,
  fakeMaxTokensReply,
  fakeRefusalReply,
  fakeStreamErrorReply,
  fakeTextReply,
  fakeToolUseReply,
  type RecordedRequest,
  startFakeAnthropicServer,
} from "../test/index.ts";
import type { RunAnthropicAgentOptions } from "./run-anthropic-agent.ts";

const PROMPT =
  "# Output format\n\nStart with frontmatter.\n\n# Your role: writer\n\nYou write.\n\n# Task\n\nWrite notes.\n\n# Your next step\n\nThis is step 1 of the thread.\n\nGo.\n";
const SECOND_PROMPT = PROMPT.replace("step 1", "step 3").replace("Go.", "Address the review.");

const fake = useFakeAnthropicRun("uwf-anthropic-fallbacks-");

function run(
  overrides: Partial<RunAnthropicAgentOptions> = {},
  model: Record<string, unknown> = {},
  spec: Partial<AnthropicAgentSpec> = {},
) {
  return fake.run({ prompt: PROMPT, config: fake.config(model), ...overrides }, spec);
}

function continuing(transcript: unknown[] | null | undefined, prompt = SECOND_PROMPT) {
  return { prompt, previousVisit: { sessionId: null, transcript: transcript ?? null, shared: false } };
}

interface RequestBody {
  system: Array<{ text: string; cache_control?: unknown }>;
  tools: unknown[];
  messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
}
const bodyOf = (request: RecordedRequest | undefined) => request?.body as RequestBody;

/** The request without its cache breakpoints, as the prompt cache compares it. */
function withoutBreakpoints(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, item) => (key === "cache_control" ? undefined : item)));
}

function breakpoints(body: RequestBody): number {
  return (JSON.stringify(body).match(/"cache_control"/g) ?? []).length;
}

describe("runAnthropicAgent against the strict fake: retries", () => {
  it("retries an overload and a server error sent mid-stream after HTTP 200, with the HTTP backoff", async () => {
    fake.server.enqueue(
      fakeStreamErrorReply("overloaded_error", { text: "Half an ans" }),
      fakeStreamErrorReply("api_error", { message: "Internal server error" }),
      fakeTextReply("---\nsummary: ok\n---\n"),
    );
    const result = await run();
    expect(result.error).toBeNull();
    expect(result.reply).toBe("---\nsummary: ok\n---\n");
    expect(fake.server.requests.map((request) => request.status)).toEqual([200, 200, 200]);
    expect(result.stderrTail).toMatch(
      /turn 1: overloaded_error mid-stream \(after HTTP 200\): Overloaded \(attempt 1 of 3\); retrying in 0\.\d s/,
    );
    expect(result.stderrTail).toContain(
      "turn 1: api_error mid-stream (after HTTP 200): Internal server error (attempt 2 of 3); retrying in",
    );
  }, 20_000);

  it("names the status and the attempt count when the retries run out, mid-stream or over HTTP", async () => {
    fake.server.enqueue(fakeStreamErrorReply(), fakeStreamErrorReply());
    const midStream = await run({ maxRetries: 1 });
    expect(midStream.error).toBe(
      `the model API (provider "fake" at ${fake.server.url}, model claude-sonnet-5-5) failed after 2 attempts: overloaded_error mid-stream (after HTTP 200): Overloaded`,
    );
    fake.server.enqueue(fakeErrorReply("overloaded_error", { retryAfter: "0.01" }));
    const once = await run({ maxRetries: 0 });
    expect(once.error).toBe(
      `the model API (provider "fake" at ${fake.server.url}, model claude-sonnet-5-5) failed: 529 overloaded_error: Overloaded`,
    );
  }, 20_000);

  it("keeps the SDK's deprecation warning off the console, in the agent's log", async () => {
    fake.server.enqueue(fakeTextReply("---\nsummary: ok\n---\n"), fakeTextReply("---\nsummary: again\n---\n"));
    const printed: unknown[][] = [];
    const original = console.warn;
    console.warn = (...parts: unknown[]) => printed.push(parts);
    try {
      const result = await run({}, { model: "claude-sonnet-4-5" });
      expect(result.error).toBeNull();
      expect(result.stderrTail).toContain("SDK warning: The model 'claude-sonnet-4-5' is deprecated");
    } finally {
      console.warn = original;
    }
    expect(printed).toEqual([]);
  });
});

describe("runAnthropicAgent against the strict fake: stop reasons", () => {
  it("fails a refusal clearly instead of answering an empty reply", async () => {
    fake.server.enqueue(fakeRefusalReply({ category: "cyber", explanation: "Declined." }));
    const result = await run();
    expect(result.exitCode).toBeNull();
    expect(result.reply).toBe("");
    expect(result.error).toBe(
      "the model refused to answer (stop_reason refusal, cyber: Declined.); the refused conversation is kept in the run but never continued",
    );
    expect((result.transcript as Array<{ stopReason?: string }>).at(-1)?.stopReason).toBe("refusal");
  });

  it("fails a turn cut off at max_tokens inside a tool call, and never runs the call", async () => {
    fake.server.enqueue(
      fakeMaxTokensReply("I will write", { toolCall: { name: "write_file", input: { path: "x.txt" } } }),
    );
    const result = await run({}, { maxTokens: 64 });
    expect(result.error).toBe(
      "the model's turn was cut off at max_tokens (64) while it was writing a tool call; raise maxTokens",
    );
    expect(fake.server.messageRequests()).toHaveLength(1);
  });

  it("asks again after an empty answer, which it never sends back (the API refuses empty messages)", async () => {
    fake.server.enqueue(
      fakeToolUseReply({ name: "list_files", input: {} }),
      { type: "message", content: [] },
      fakeTextReply("---\nsummary: ok\n---\n"),
    );
    const result = await run();
    expect(result.reply).toBe("---\nsummary: ok\n---\n");
    const third = bodyOf(fake.server.messageRequests()[2]);
    expect(third.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(third.messages[2]?.content.map((block) => block.type)).toEqual(["tool_result", "text"]);
    expect(result.stderrTail).toContain("turn 2: the model answered nothing; asking for the answer");
  });

  it("continues an answer cut off at max_tokens in the next turn and joins the pieces", async () => {
    fake.server.enqueue(fakeMaxTokensReply("---\nsummary: long"), fakeTextReply(" answer\n---\n\nDone."));
    const result = await run();
    expect(result.error).toBeNull();
    expect(result.reply).toBe("---\nsummary: long answer\n---\n\nDone.");
    const second = bodyOf(fake.server.messageRequests()[1]);
    expect(second.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(second.messages[2])).toContain("cut off by the output limit (max_tokens)");
    expect(fake.server.rejectedRequests()).toEqual([]);
  });
});

describe("runAnthropicAgent against the strict fake: no stranded roles", () => {
  it("starts afresh when the stored conversation would not fit, measured with count_tokens before sending", async () => {
    const longResult = "x".repeat(40_000);
    const stored = [
      { role: "user", content: [{ type: "text", text: "# Task\n\nWrite notes." }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_9", name: "read_file", input: { path: "a" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_9", content: longResult }] },
      { role: "assistant", content: [{ type: "text", text: "---\nsummary: first\n---" }], stopReason: "end_turn" },
    ];
    await fake.server.close();
    fake.server = startFakeAnthropicServer({ apiKey: KEY, contextWindow: 8_000 });
    fake.server.enqueue(fakeTextReply("---\nsummary: fresh\n---\n"));
    const result = await run(continuing(stored), { contextWindow: 8_000, maxTokens: 1_000 });
    expect(result.error).toBeNull();
    expect(result.reply).toBe("---\nsummary: fresh\n---\n");

    // The conversation was counted first; sent, it would have been the real 400.
    const [count, sent] = fake.server.requests;
    expect(count?.path).toBe("/v1/messages/count_tokens");
    expect(estimateFakeInputTokens(count?.body)).toBeGreaterThan(8_000);
    expect(fake.server.rejectedRequests()).toEqual([]);
    expect(bodyOf(sent).messages).toHaveLength(1);
    expect(JSON.stringify(bodyOf(sent).messages)).toContain("Address the review.");

    const reason = `the stored conversation and the new prompt take ${estimateFakeInputTokens(count?.body)} tokens, more than half (3500) of what claude-sonnet-5-5's 8000-token context window leaves beside maxTokens (1000)`;
    expect(result.stderrTail).toContain(`starting a fresh conversation: ${reason}`);
    expect((result.transcript as Array<{ freshStart?: string }>)[0]?.freshStart).toBe(reason);
  });

  it("starts afresh from a stored conversation whose last turn is an unanswered tool_use (a max_tokens stop)", async () => {
    const stored = [
      { role: "user", content: [{ type: "text", text: "# Task\n\nWrite notes." }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me" },
          { type: "tool_use", id: "toolu_7", name: "write_file", input: {} },
        ],
        stopReason: "max_tokens",
      },
    ];
    fake.server.enqueue(fakeTextReply("---\nsummary: fresh\n---\n"));
    const result = await run(continuing(stored));
    expect(result.error).toBeNull();
    expect(fake.server.requests.map((request) => request.path)).toEqual(["/v1/messages"]);
    expect(bodyOf(fake.server.requests[0]).messages).toHaveLength(1);
    expect(result.stderrTail).toContain(
      "starting a fresh conversation: the stored conversation is malformed: message 2 calls toolu_7 without a tool_result in the next message",
    );
  });

  it("answers a retry within the conversation, under the system prompt it was started with", async () => {
    fake.server.enqueue(fakeTextReply("no frontmatter"), fakeTextReply("---\nsummary: fixed\n---\n"));
    const first = await run();
    const retry = await run(continuing(first.transcript, "# Your previous reply could not be used\n\nProblem: x\n"));
    expect(retry.reply).toBe("---\nsummary: fixed\n---\n");
    const [sent, retried] = fake.server.messageRequests();
    expect(bodyOf(retried).system).toEqual(bodyOf(sent).system);
    expect(bodyOf(retried).system[0]?.text).toContain("# Your role: writer");
  });
});

describe("runAnthropicAgent against the strict fake: prompt caching", () => {
  it("sends a byte-identical prefix on the role's next visit: tools, system prompt and the stored conversation", async () => {
    fake.server.enqueue(
      fakeToolUseReply({ name: "list_files", input: {} }),
      fakeTextReply("---\nsummary: first\n---\n"),
      fakeToolUseReply({ name: "list_files", input: {} }),
      fakeTextReply("---\nsummary: second\n---\n"),
    );
    const first = await run();
    expect(first.error).toBeNull();
    const second = await run(continuing(first.transcript));
    expect(second.error).toBeNull();
    expect(fake.server.rejectedRequests()).toEqual([]);

    const requests = fake.server.messageRequests().map(bodyOf);
    const lastOfFirst = requests[1] as RequestBody;
    const firstOfSecond = requests[2] as RequestBody;
    // The system prompt carries no step number: byte for byte the same, breakpoint included.
    expect(JSON.stringify(firstOfSecond.system)).toBe(JSON.stringify(lastOfFirst.system));
    expect(firstOfSecond.system[0]?.cache_control).toEqual({ type: "ephemeral" });
    expect(JSON.stringify(firstOfSecond.tools)).toBe(JSON.stringify(lastOfFirst.tools));
    // What the first visit sent last is the start of what the second sends first (breakpoints apart).
    const sentBefore = JSON.stringify(withoutBreakpoints(lastOfFirst.messages));
    const sentAfter = JSON.stringify(withoutBreakpoints(firstOfSecond.messages.slice(0, lastOfFirst.messages.length)));
    expect(sentAfter).toBe(sentBefore);
    expect(firstOfSecond.messages).toHaveLength(lastOfFirst.messages.length + 2);

    // Breakpoints: the system prompt, the end of the stored conversation, the newest message; never more than four.
    for (const body of requests) expect(breakpoints(body)).toBeLessThanOrEqual(4);
    expect(firstOfSecond.messages[3]?.content.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    expect(firstOfSecond.messages[4]?.content.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    expect(breakpoints(firstOfSecond)).toBe(3);
    // Within a visit too, each turn repeats the turn before.
    const secondTurn = requests[3] as RequestBody;
    expect(JSON.stringify(withoutBreakpoints(secondTurn.messages.slice(0, 5)))).toBe(
      JSON.stringify(withoutBreakpoints(firstOfSecond.messages)),
    );
  });
});

describe("runAnthropicAgent against the strict fake: providers", () => {
  it("refuses a model served by a provider of type openai, before any request", async () => {
    const config = fake.config({ provider: "local" }, { providers: { local: { type: "openai", apiKeyEnv: "X_KEY" } } });
    const result = await run({ config });
    expect(result.error).toBe(
      'model "sonnet" is served by provider "local" of type openai, but the built-in anthropic agent needs a provider of type anthropic; set the agent\'s model to one on such a provider',
    );
    expect(fake.server.requests).toHaveLength(0);
  });

  it("fails cleanly, without retrying, when the prompt is over the context window", async () => {
    // A server of its own: the overflow is the refusal this test wants, which the shared fake would count against it.
    const small = startFakeAnthropicServer({ apiKey: KEY, contextWindow: 50 });
    try {
      const providers = { fake: { baseUrl: small.url, apiKeyEnv: KEY_VARIABLE } };
      const result = await run({ config: fake.config({}, { providers }) });
      expect(result.error).toContain(
        "the request is over claude-sonnet-5-5's context window: 400 invalid_request_error: prompt is too long",
      );
      expect(small.messageRequests()).toHaveLength(1);
    } finally {
      await small.close();
    }
  });
});
