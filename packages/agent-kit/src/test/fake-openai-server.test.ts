import { afterEach, describe, expect, it } from "bun:test";
import {
  fakeChatErrorReply,
  fakeChatStreamErrorReply,
  fakeChatTextReply,
  fakeChatToolCallReply,
} from "./fake-chat-replies.ts";
import { type FakeOpenaiServer, startFakeOpenaiServer } from "./fake-openai-server.ts";

let server: FakeOpenaiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const HELLO = [{ role: "user", content: "Hello" }];
const REQUEST = { model: "gpt-x", messages: HELLO };
const CALL = { id: "call_1", type: "function", function: { name: "read_file", arguments: "{}" } };

function post(body: unknown, headers: Record<string, string> = { authorization: "Bearer k" }) {
  return fetch(`${server?.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

async function refusal(body: unknown): Promise<{ status: number; message: string; code: unknown }> {
  const response = await post(body);
  const json = (await response.json()) as { error: { message: string; code: unknown } };
  return { status: response.status, message: json.error.message, code: json.error.code };
}

/** The `data:` payloads of a stream, `[DONE]` as a string. */
function parseChunks(text: string): unknown[] {
  return text
    .trim()
    .split("\n\n")
    .map((line) => line.slice("data: ".length))
    .map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
}

describe("startFakeOpenaiServer", () => {
  it("answers a request with a chat.completion and its usage", async () => {
    server = startFakeOpenaiServer({ replies: [fakeChatTextReply("hi", { prompt_tokens: 7, completion_tokens: 2 })] });
    const response = await post(REQUEST);
    expect(response.status).toBe(200);
    const completion = (await response.json()) as Record<string, unknown>;
    expect(completion).toMatchObject({
      id: "chatcmpl-fake-0001",
      object: "chat.completion",
      model: "gpt-x",
      choices: [{ index: 0, message: { role: "assistant", content: "hi", refusal: null }, finish_reason: "stop" }],
      usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9, prompt_tokens_details: { cached_tokens: 0 } },
    });
  });

  it("streams chunks: text and tool-call arguments in pieces, the finish reason, the usage chunk, [DONE]", async () => {
    server = startFakeOpenaiServer({
      replies: [fakeChatToolCallReply({ name: "write_file", arguments: { path: "a.txt" } }, { text: "Sure." })],
    });
    const response = await post({ ...REQUEST, stream: true, stream_options: { include_usage: true } });
    expect(response.headers.get("content-type")).toStartWith("text/event-stream");
    const chunks = parseChunks(await response.text()) as Array<Record<string, unknown>>;
    expect(chunks.at(-1) as unknown).toBe("[DONE]");
    const usage = chunks.at(-2) as { choices: unknown[]; usage: { prompt_tokens: number } };
    expect(usage.choices).toEqual([]);
    expect(usage.usage.prompt_tokens).toBeGreaterThan(0);
    const deltas = chunks.slice(0, -2).map((chunk) => (chunk.choices as Array<Record<string, unknown>>)[0]);
    expect(deltas.every((_, index) => chunks[index]?.usage === null)).toBe(true);
    const text = deltas.map((choice) => ((choice?.delta ?? {}) as { content?: string }).content ?? "").join("");
    expect(text).toBe("Sure.");
    const args = deltas
      .flatMap(
        (choice) =>
          ((choice?.delta ?? {}) as { tool_calls?: Array<{ function: { arguments?: string } }> }).tool_calls ?? [],
      )
      .map((call) => call.function.arguments ?? "")
      .join("");
    expect(args).toBe('{"path":"a.txt"}');
    expect(deltas.at(-1)?.finish_reason).toBe("tool_calls");
  });

  it("sends no usage chunk unless asked, and ends a stream with an error chunk when scripted", async () => {
    server = startFakeOpenaiServer({
      replies: [fakeChatTextReply("x"), fakeChatStreamErrorReply("server_error", { text: "par" })],
    });
    const plain = parseChunks(await (await post({ ...REQUEST, stream: true })).text()) as Array<
      Record<string, unknown>
    >;
    expect(plain.some((chunk) => (chunk as unknown) !== "[DONE]" && "usage" in chunk)).toBe(false);
    const broken = await post({ ...REQUEST, stream: true });
    expect(broken.status).toBe(200);
    const chunks = parseChunks(await broken.text());
    expect(chunks.at(-1)).toEqual({
      error: {
        message: "The server had an error while processing your request.",
        type: "server_error",
        param: null,
        code: "server_error",
      },
    });
  });

  it("honours max_tokens and max_completion_tokens: a longer reply is cut there with finish reason length", async () => {
    server = startFakeOpenaiServer({
      replies: [
        fakeChatTextReply("a".repeat(100)),
        fakeChatToolCallReply({ name: "f", arguments: { x: "y".repeat(50) } }),
      ],
    });
    const text = (await (await post({ ...REQUEST, max_tokens: 5 })).json()) as {
      choices: Array<{ message: { content: string }; finish_reason: string }>;
      usage: { completion_tokens: number };
    };
    expect(text.choices[0]?.message.content).toBe("a".repeat(20));
    expect(text.choices[0]?.finish_reason).toBe("length");
    expect(text.usage.completion_tokens).toBe(5);
    const call = (await (await post({ ...REQUEST, max_completion_tokens: 3 })).json()) as {
      choices: Array<{ message: Record<string, unknown>; finish_reason: string }>;
    };
    expect(call.choices[0]?.finish_reason).toBe("length");
    expect(call.choices[0]?.message.tool_calls).toBeUndefined();
  });

  it("answers a scripted 429 with its retry-after header", async () => {
    server = startFakeOpenaiServer({ replies: [fakeChatErrorReply("rate_limit_exceeded", { retryAfter: "2" })] });
    const response = await post(REQUEST);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("2");
    expect(await response.json()).toEqual({
      error: { message: "Rate limit reached for requests", type: "requests", param: null, code: "rate_limit_exceeded" },
    });
  });

  it("refuses a request over the context window with 400 context_length_exceeded, counting the output it asks for", async () => {
    server = startFakeOpenaiServer({ contextWindow: 100 });
    expect((await post({ ...REQUEST, max_tokens: 50 })).status).toBe(200);
    const over = await refusal({ ...REQUEST, max_tokens: 95 });
    expect(over.status).toBe(400);
    expect(over.code).toBe("context_length_exceeded");
    expect(over.message).toStartWith("This model's maximum context length is 100 tokens.");
  });

  it("refuses a request without a bearer key, and one with the wrong key", async () => {
    server = startFakeOpenaiServer({ apiKey: "right" });
    const none = await post(REQUEST, {});
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { message: string } }).error.message).toStartWith(
      "You didn't provide an API key.",
    );
    const wrong = await post(REQUEST, { authorization: "Bearer wrong" });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("invalid_api_key");
    expect((await post(REQUEST, { authorization: "Bearer right" })).status).toBe(200);
  });

  it("refuses what the real API refuses, and takes no scripted reply for it", async () => {
    server = startFakeOpenaiServer({ replies: [fakeChatTextReply("kept")] });
    const cases: Array<[unknown, string]> = [
      [{ ...REQUEST, max_output_tokens: 5 }, "Unrecognized request argument supplied: max_output_tokens"],
      [{ messages: HELLO }, "you must provide a model parameter"],
      [
        { ...REQUEST, max_tokens: 5, max_completion_tokens: 5 },
        "max_tokens and max_completion_tokens cannot both be set",
      ],
      [
        { ...REQUEST, stream_options: { include_usage: true } },
        "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      ],
      [{ ...REQUEST, messages: [] }, "Invalid 'messages': empty array."],
      [{ ...REQUEST, messages: [{ role: "robot", content: "x" }] }, "Invalid value: 'robot'."],
      [
        { ...REQUEST, messages: [{ role: "user", content: "x", cache_control: {} }] },
        "Unknown parameter: 'messages[0].cache_control'.",
      ],
      [
        { ...REQUEST, messages: [...HELLO, { role: "tool", tool_call_id: "call_1", content: "x" }] },
        "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'",
      ],
      [
        {
          ...REQUEST,
          messages: [
            ...HELLO,
            { role: "assistant", content: null, tool_calls: [CALL] },
            { role: "tool", tool_call_id: "call_9", content: "x" },
          ],
        },
        "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'",
      ],
      [
        {
          ...REQUEST,
          messages: [
            ...HELLO,
            { role: "assistant", content: null, tool_calls: [CALL] },
            { role: "user", content: "next" },
          ],
        },
        "The following tool_call_ids did not have response messages: call_1",
      ],
      [
        { ...REQUEST, messages: [...HELLO, { role: "assistant", content: null, tool_calls: [CALL] }] },
        "The following tool_call_ids did not have response messages: call_1",
      ],
      [
        {
          ...REQUEST,
          messages: [
            ...HELLO,
            { role: "assistant", content: null, tool_calls: [CALL] },
            { role: "tool", tool_call_id: "call_1", content: "a" },
            { role: "tool", tool_call_id: "call_1", content: "b" },
          ],
        },
        "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'",
      ],
      [
        { ...REQUEST, messages: [...HELLO, { role: "assistant", content: null }] },
        "Invalid value for 'messages[1].content'",
      ],
      [
        { ...REQUEST, tools: [{ type: "function", function: { name: "bad name" } }] },
        "Invalid 'tools[0].function.name'",
      ],
      [
        { ...REQUEST, tools: [{ type: "function", function: { name: "f", input_schema: {} } }] },
        "Unknown parameter: 'tools[0].function.input_schema'.",
      ],
      [
        { ...REQUEST, tools: [{ type: "function", function: { name: "f", parameters: { type: "string" } } }] },
        "Invalid schema for function 'f'",
      ],
      [
        { ...REQUEST, tool_choice: { type: "function", function: { name: "nope" } } },
        "Invalid value for 'tool_choice': function 'nope' is not among the request's tools.",
      ],
    ];
    for (const [body, message] of cases) {
      const refused = await refusal(body);
      expect(refused.status).toBe(400);
      expect(refused.message).toContain(message);
    }
    expect(server.rejectedRequests()).toHaveLength(cases.length);
    expect(server.remaining()).toBe(1);
    // A well-paired conversation passes.
    const paired = await post({
      ...REQUEST,
      messages: [
        ...HELLO,
        { role: "assistant", content: null, tool_calls: [CALL] },
        { role: "tool", tool_call_id: "call_1", content: "a" },
      ],
    });
    expect(paired.status).toBe(200);
  });
});
