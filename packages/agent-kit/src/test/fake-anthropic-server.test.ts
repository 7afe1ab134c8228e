import { afterEach, describe, expect, it } from "bun:test";
import { estimateFakeInputTokens } from "./estimate-fake-input-tokens.ts";
import { type FakeAnthropicServer, startFakeAnthropicServer } from "./fake-anthropic-server.ts";
import {
  FAKE_ERROR_STATUS,
  type FakeErrorType,
  fakeErrorReply,
  fakeMaxTokensReply,
  fakeRefusalReply,
  fakeStreamErrorReply,
  fakeTextReply,
  fakeToolUseReply,
} from "./fake-replies.ts";

let server: FakeAnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const HELLO = [{ role: "user", content: "Hello" }];
/** A stream's first events when its first block is text the fake sends in three pieces. */
const OPENING_WITH_TEXT = [
  "message_start",
  "ping",
  "content_block_start",
  "content_block_delta",
  "content_block_delta",
  "content_block_delta",
];
/** The smallest request the real API accepts. */
const REQUEST = { model: "claude-x", max_tokens: 10, messages: HELLO };

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server?.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k", ...headers },
    body: JSON.stringify(body),
  });
}

/** The `data:` payloads of a server-sent event stream, with their event names. */
function parseEvents(text: string): Array<{ event: string; data: Record<string, unknown> }> {
  return text
    .trim()
    .split("\n\n")
    .map((chunk) => {
      const [eventLine, dataLine] = chunk.split("\n");
      return {
        event: eventLine?.slice("event: ".length) ?? "",
        data: JSON.parse(dataLine?.slice("data: ".length) ?? "{}"),
      };
    });
}

describe("startFakeAnthropicServer", () => {
  it("answers a JSON request with a message and usage", async () => {
    server = startFakeAnthropicServer({ replies: [fakeTextReply("hello", { input_tokens: 7, output_tokens: 3 })] });
    const response = await post("/v1/messages", { model: "claude-x", max_tokens: 10, messages: HELLO });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: "msg_fake_0001",
      type: "message",
      role: "assistant",
      model: "claude-x",
      content: [{ type: "text", text: "hello" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 7, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it("streams the Messages API's event sequence, tool input as input_json_delta pieces", async () => {
    server = startFakeAnthropicServer({
      replies: [fakeToolUseReply({ name: "write_file", input: { path: "a.txt", content: "hi" } }, { text: "Sure." })],
    });
    const response = await post("/v1/messages", { ...REQUEST, stream: true });
    expect(response.headers.get("content-type")).toStartWith("text/event-stream");
    const events = parseEvents(await response.text());
    expect(events.map((event) => event.event)).toEqual([
      ...OPENING_WITH_TEXT,
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    for (const event of events) expect(event.data.type).toBe(event.event);
    expect(events[7]?.data.content_block).toEqual({
      type: "tool_use",
      id: "toolu_fake_0001",
      name: "write_file",
      input: {},
    });
    const json = events
      .filter((event) => (event.data.delta as { type?: string } | undefined)?.type === "input_json_delta")
      .map((event) => (event.data.delta as { partial_json: string }).partial_json)
      .join("");
    expect(JSON.parse(json)).toEqual({ path: "a.txt", content: "hi" });
    expect(events[13]?.data).toEqual({
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { output_tokens: 5 },
    });
  });

  it("sends the real error types with their status codes and retry-after", async () => {
    const types = Object.keys(FAKE_ERROR_STATUS) as FakeErrorType[];
    server = startFakeAnthropicServer({ replies: types.map((type) => fakeErrorReply(type, { retryAfter: "2" })) });
    for (const type of types) {
      const response = await post("/v1/messages", { ...REQUEST, stream: true });
      expect(response.status).toBe(FAKE_ERROR_STATUS[type]);
      expect(response.headers.get("retry-after")).toBe("2");
      const body = (await response.json()) as { type: string; error: { type: string } };
      expect(body.type).toBe("error");
      expect(body.error.type).toBe(type);
    }
    expect(types.map((type) => FAKE_ERROR_STATUS[type])).toEqual([400, 401, 403, 404, 413, 429, 500, 529]);
  });

  it("records requests without secrets, refuses a wrong key and answers other paths with 404", async () => {
    server = startFakeAnthropicServer({ apiKey: "right-key" });
    const first = { ...REQUEST, metadata: { n: 1 } };
    const second = { ...REQUEST, metadata: { n: 2 } };
    expect((await post("/v1/messages", first, { "x-api-key": "wrong" })).status).toBe(401);
    expect((await post("/v1/messages", second, { "x-api-key": "right-key" })).status).toBe(200);
    expect((await post("/v1/other", {}, { "x-api-key": "right-key" })).status).toBe(404);
    expect(server.requests.map((request) => [request.path, request.status, request.body])).toEqual([
      ["/v1/messages", 401, first],
      ["/v1/messages", 200, second],
      ["/v1/other", 404, {}],
    ]);
    expect(server.requests[1]?.headers["x-api-key"]).toBe("[redacted]");
    expect(JSON.stringify(server.requests)).not.toContain("right-key");
  });

  it("gives side requests the default reply when isScripted declines them", async () => {
    server = startFakeAnthropicServer({
      replies: [fakeTextReply("scripted")],
      isScripted: (request) => (request.body as { tools?: unknown[] }).tools !== undefined,
      defaultReply: fakeTextReply("side"),
    });
    const side = (await (await post("/v1/messages", REQUEST)).json()) as { content: Array<{ text: string }> };
    const main = (await (await post("/v1/messages", { ...REQUEST, tools: [] })).json()) as {
      content: Array<{ text: string }>;
    };
    expect([side.content[0]?.text, main.content[0]?.text]).toEqual(["side", "scripted"]);
    expect(server.scriptedRequests()).toHaveLength(1);
    expect(server.remaining()).toBe(0);
  });

  it("refuses in strict mode (the default) what the real API refuses, with its 400, and keeps the scripted reply", async () => {
    server = startFakeAnthropicServer({ replies: [fakeTextReply("scripted")] });
    const bad = {
      ...REQUEST,
      messages: [
        { role: "user", content: "One" },
        { role: "user", content: "Two" },
      ],
    };
    const response = await post("/v1/messages", bad);
    expect(response.status).toBe(400);
    const message =
      'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row';
    expect(await response.json()).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message },
      request_id: "req_fake_error_400",
    });
    expect(server.rejectedRequests().map((request) => request.rejection)).toEqual([message]);
    expect(server.remaining()).toBe(1);
    const good = (await (await post("/v1/messages", REQUEST)).json()) as { content: Array<{ text: string }> };
    expect(good.content[0]?.text).toBe("scripted");
  });

  it("accepts anything with strict: false", async () => {
    server = startFakeAnthropicServer({ strict: false });
    expect((await post("/v1/messages", { messages: [] })).status).toBe(200);
    expect(server.requests[0]?.rejection).toBeNull();
  });

  it("counts tokens like it measures the context window, and answers a longer prompt with the real 400", async () => {
    const tokens = estimateFakeInputTokens(REQUEST);
    server = startFakeAnthropicServer({ contextWindow: tokens });
    const counted = await post("/v1/messages/count_tokens", { model: "claude-x", messages: HELLO });
    expect(await counted.json()).toEqual({ input_tokens: tokens });
    expect((await post("/v1/messages", REQUEST)).status).toBe(200);
    const longer = { ...REQUEST, messages: [{ role: "user", content: "Hello there" }] };
    const refused = await post("/v1/messages", longer);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      `prompt is too long: ${estimateFakeInputTokens(longer)} tokens > ${tokens} maximum`,
    );
    expect(server.messageRequests()).toHaveLength(2);
  });

  it("sends an error event mid-stream after HTTP 200, and the error's status to a request that does not stream", async () => {
    server = startFakeAnthropicServer({
      replies: [fakeStreamErrorReply("overloaded_error", { text: "Partial" }), fakeStreamErrorReply("api_error")],
    });
    const streamed = await post("/v1/messages", { ...REQUEST, stream: true });
    expect(streamed.status).toBe(200);
    const events = parseEvents(await streamed.text());
    expect(events.map((event) => event.event)).toEqual([...OPENING_WITH_TEXT, "error"]);
    expect(events.at(-1)?.data).toEqual({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    const plain = await post("/v1/messages", REQUEST);
    expect(plain.status).toBe(500);
  });

  it("streams the stop reasons max_tokens and refusal, a refusal with its stop_details", async () => {
    server = startFakeAnthropicServer({
      replies: [
        fakeMaxTokensReply("Cut", { toolCall: { name: "read_file", input: { path: "a" } } }),
        fakeRefusalReply({ category: "cyber", explanation: "Declined." }),
      ],
    });
    const cut = parseEvents(await (await post("/v1/messages", { ...REQUEST, stream: true })).text());
    expect(cut.find((event) => event.event === "message_delta")?.data.delta).toEqual({
      stop_reason: "max_tokens",
      stop_sequence: null,
    });
    const refused = parseEvents(await (await post("/v1/messages", { ...REQUEST, stream: true })).text());
    expect(refused.find((event) => event.event === "message_delta")?.data.delta).toEqual({
      stop_reason: "refusal",
      stop_sequence: null,
      stop_details: { type: "refusal", category: "cyber", explanation: "Declined." },
    });
  });
});
