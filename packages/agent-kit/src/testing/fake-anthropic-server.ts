import {
  FAKE_ERROR_STATUS,
  type FakeErrorReply,
  type FakeMessageReply,
  type FakeReply,
  type FakeRequestView,
  type FakeUsage,
  fakeTextReply,
  type ScriptedReply,
} from "./fake-replies.ts";
import { encodeMessageEvents } from "./fake-stream-events.ts";

/** One request the fake server received. Secret headers are replaced by `[redacted]`; keys are never stored. */
export interface RecordedRequest {
  method: string;
  /** The path with its query, e.g. `/v1/messages?beta=true`. */
  path: string;
  headers: Record<string, string>;
  /** The body parsed as JSON, or its text when it is not JSON. */
  body: unknown;
  /** Whether the request carried an API key (in `x-api-key` or `authorization`). */
  hasApiKey: boolean;
  /** Whether the reply came from the scripted list (false: the default reply, an auth failure or a 404). */
  scripted: boolean;
  /** The HTTP status sent back. */
  status: number;
}

export interface StartFakeAnthropicServerOptions {
  /** Replies to `POST /v1/messages`, in order. More can be added with `enqueue`. */
  replies?: ScriptedReply[];
  /** The answer once the script is used up, or to requests `isScripted` declines. Default: a text reply "OK". */
  defaultReply?: ScriptedReply;
  /**
   * Which message requests take the next scripted reply. Default: all. Claude Code, for example,
   * sends side requests (titles, quota checks) that a test can route to the default reply.
   */
  isScripted?: (request: FakeRequestView) => boolean;
  /** When set, a request without exactly this key gets 401 `authentication_error`. */
  apiKey?: string;
}

export interface FakeAnthropicServer {
  /** `http://127.0.0.1:PORT`: the base URL to give the SDK, Claude Code or `providers.NAME.baseUrl`. */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** The `POST /v1/messages` requests that took a scripted reply, oldest first. */
  scriptedRequests(): RecordedRequest[];
  enqueue(...replies: ScriptedReply[]): void;
  /** Scripted replies not sent yet. */
  remaining(): number;
  close(): Promise<void>;
}

const SECRET_HEADERS = new Set(["x-api-key", "authorization", "proxy-authorization", "cookie"]);
const DEFAULT_USAGE: FakeUsage = {
  input_tokens: 10,
  output_tokens: 5,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

/**
 * A local stand-in for the Anthropic Messages API, for tests: `Bun.serve` on
 * 127.0.0.1 with a free port. `POST /v1/messages` answers from a scripted list,
 * as JSON or as server-sent events when the request says `stream: true`, with
 * the real event sequence (message_start, content_block_start/delta/stop with
 * `text_delta` and `input_json_delta`, message_delta with usage, message_stop)
 * and the real error bodies and status codes. Other paths answer 404 with a
 * `not_found_error` body. Every request is recorded, minus secrets.
 */
export function startFakeAnthropicServer(options: StartFakeAnthropicServerOptions = {}): FakeAnthropicServer {
  const queue: ScriptedReply[] = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];
  const defaultReply = options.defaultReply ?? fakeTextReply("OK");
  let messageCount = 0;
  let toolCount = 0;

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const text = await request.text();
      const body = parseBody(text);
      const { headers, hasApiKey, apiKey } = recordHeaders(request.headers);
      const record: RecordedRequest = {
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
        body,
        hasApiKey,
        scripted: false,
        status: 200,
      };
      requests.push(record);
      const respond = (response: Response): Response => {
        record.status = response.status;
        return response;
      };

      if (options.apiKey !== undefined && apiKey !== options.apiKey) {
        return respond(
          errorResponse({ type: "error", errorType: "authentication_error", message: "invalid x-api-key" }),
        );
      }
      if (request.method === "POST" && url.pathname === "/v1/messages/count_tokens") {
        return respond(Response.json({ input_tokens: Math.ceil(text.length / 4) }));
      }
      if (request.method !== "POST" || url.pathname !== "/v1/messages") {
        return respond(
          errorResponse({
            type: "error",
            errorType: "not_found_error",
            message: `no route ${request.method} ${url.pathname}`,
          }),
        );
      }

      const view: FakeRequestView = { path: record.path, body };
      const wantsScript = options.isScripted?.(view) ?? true;
      const next = wantsScript ? queue.shift() : undefined;
      record.scripted = next !== undefined;
      const reply = resolveReply(next ?? defaultReply, view);
      if (reply.type === "error") return respond(errorResponse(reply));

      const message = buildMessage(
        reply,
        body,
        () => `msg_fake_${String(++messageCount).padStart(4, "0")}`,
        () => `toolu_fake_${String(++toolCount).padStart(4, "0")}`,
      );
      const streaming = isObject(body) && body.stream === true;
      if (!streaming) return respond(Response.json(message, { headers: { "request-id": requestId(requests.length) } }));
      const events = encodeMessageEvents(message);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          const encoder = new TextEncoder();
          for (const event of events) controller.enqueue(encoder.encode(event));
          controller.close();
        },
      });
      return respond(
        new Response(stream, {
          headers: {
            "content-type": "text/event-stream; charset=utf-8",
            "cache-control": "no-cache",
            "request-id": requestId(requests.length),
          },
        }),
      );
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    scriptedRequests: () => requests.filter((request) => request.scripted),
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    remaining: () => queue.length,
    close: async () => {
      await server.stop(true);
    },
  };
}

/** The message object the API returns (and `message_start` / the stream's events describe). */
export interface FakeMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: Array<
    { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  >;
  stop_reason: string;
  stop_sequence: null;
  usage: FakeUsage;
}

function buildMessage(
  reply: FakeMessageReply,
  body: unknown,
  nextMessageId: () => string,
  nextToolId: () => string,
): FakeMessage {
  const requestedModel = isObject(body) && typeof body.model === "string" ? body.model : "claude-fake";
  const content = reply.content.map((block) =>
    block.type === "text"
      ? block
      : { type: "tool_use" as const, id: block.id ?? nextToolId(), name: block.name, input: block.input },
  );
  const hasToolUse = content.some((block) => block.type === "tool_use");
  return {
    id: nextMessageId(),
    type: "message",
    role: "assistant",
    model: reply.model ?? requestedModel,
    content,
    stop_reason: reply.stopReason ?? (hasToolUse ? "tool_use" : "end_turn"),
    stop_sequence: null,
    usage: { ...DEFAULT_USAGE, ...reply.usage },
  };
}

function resolveReply(reply: ScriptedReply, view: FakeRequestView): FakeReply {
  return typeof reply === "function" ? reply(view) : reply;
}

function errorResponse(reply: FakeErrorReply): Response {
  const status = reply.status ?? FAKE_ERROR_STATUS[reply.errorType];
  const id = `req_fake_error_${status}`;
  return Response.json(
    { type: "error", error: { type: reply.errorType, message: reply.message }, request_id: id },
    { status, headers: { "request-id": id, ...reply.headers } },
  );
}

function recordHeaders(source: Headers): {
  headers: Record<string, string>;
  hasApiKey: boolean;
  apiKey: string | null;
} {
  const headers: Record<string, string> = {};
  for (const [name, value] of source.entries()) headers[name] = SECRET_HEADERS.has(name) ? "[redacted]" : value;
  const direct = source.get("x-api-key");
  const bearer = source.get("authorization")?.replace(/^Bearer\s+/i, "") ?? null;
  const apiKey = direct ?? bearer;
  return { headers, hasApiKey: apiKey !== null && apiKey !== "", apiKey };
}

function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function requestId(index: number): string {
  return `req_fake_${String(index).padStart(4, "0")}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
