import { afterEach, describe, expect, it } from "bun:test";
import { type FakeAnthropicServer, startFakeAnthropicServer } from "./fake-anthropic-server.ts";
import {
  FAKE_ERROR_STATUS,
  type FakeErrorType,
  fakeErrorReply,
  fakeTextReply,
  fakeToolUseReply,
} from "./fake-replies.ts";

let server: FakeAnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

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
    const response = await post("/v1/messages", { model: "claude-x", max_tokens: 10, messages: [] });
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
    const response = await post("/v1/messages", { model: "m", stream: true, messages: [] });
    expect(response.headers.get("content-type")).toStartWith("text/event-stream");
    const events = parseEvents(await response.text());
    expect(events.map((event) => event.event)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
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
      const response = await post("/v1/messages", { stream: true });
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
    expect((await post("/v1/messages", { a: 1 }, { "x-api-key": "wrong" })).status).toBe(401);
    expect((await post("/v1/messages", { a: 2 }, { "x-api-key": "right-key" })).status).toBe(200);
    expect((await post("/v1/other", {}, { "x-api-key": "right-key" })).status).toBe(404);
    expect(server.requests.map((request) => [request.path, request.status, request.body])).toEqual([
      ["/v1/messages", 401, { a: 1 }],
      ["/v1/messages", 200, { a: 2 }],
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
    const side = (await (await post("/v1/messages", {})).json()) as { content: Array<{ text: string }> };
    const main = (await (await post("/v1/messages", { tools: [] })).json()) as { content: Array<{ text: string }> };
    expect([side.content[0]?.text, main.content[0]?.text]).toEqual(["side", "scripted"]);
    expect(server.scriptedRequests()).toHaveLength(1);
    expect(server.remaining()).toBe(0);
  });
});
