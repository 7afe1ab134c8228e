import { buildFakeMessage } from "./build-fake-message.ts";
import { checkMessagesRequest } from "./check-messages-request.ts";
import { estimateFakeInputTokens } from "./estimate-fake-input-tokens.ts";
import {
  FAKE_ERROR_STATUS,
  type FakeErrorReply,
  type FakeReply,
  type FakeRequestView,
  fakeTextReply,
  type ScriptedReply,
} from "./fake-replies.ts";
import { encodeMessageEvents, type FakeStreamError } from "./fake-stream-events.ts";

export type { FakeMessage } from "./build-fake-message.ts";

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
  /** Whether the reply came from the scripted list (false: the default reply, an auth failure, a 404 or a rejection). */
  scripted: boolean;
  /** The HTTP status sent back. */
  status: number;
  /** In strict mode, why the request was refused with 400 (the real API's message), else null. */
  rejection: string | null;
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
  /**
   * Refuse what the real API refuses, with its 400 `invalid_request_error` and message
   * (see `checkMessagesRequest`): bad tool names and schema keys, broken turn order,
   * unanswered tool calls, more than four cache breakpoints, a prompt over `contextWindow`.
   * Default: true. A refused request takes no scripted reply.
   */
  strict?: boolean;
  /** The context window in tokens (as `estimateFakeInputTokens` counts them). Default: 200,000. */
  contextWindow?: number;
}

export interface FakeAnthropicServer {
  /** `http://127.0.0.1:PORT`: the base URL to give the SDK, Claude Code or `providers.NAME.baseUrl`. */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** The `POST /v1/messages` requests that took a scripted reply, oldest first. */
  scriptedRequests(): RecordedRequest[];
  /** The `POST /v1/messages` requests, oldest first (not `count_tokens` or other paths). */
  messageRequests(): RecordedRequest[];
  /** The requests refused in strict mode, oldest first. */
  rejectedRequests(): RecordedRequest[];
  enqueue(...replies: ScriptedReply[]): void;
  /** Scripted replies not sent yet. */
  remaining(): number;
  close(): Promise<void>;
}

const SECRET_HEADERS = new Set(["x-api-key", "authorization", "proxy-authorization", "cookie"]);
const MESSAGES_PATH = "/v1/messages";
const COUNT_TOKENS_PATH = "/v1/messages/count_tokens";
export const DEFAULT_FAKE_CONTEXT_WINDOW = 200_000;

/**
 * A local stand-in for the Anthropic Messages API, for tests: `Bun.serve` on
 * 127.0.0.1 with a free port. `POST /v1/messages` answers from a scripted list,
 * as JSON or as server-sent events when the request says `stream: true`, with
 * the real event sequence (message_start, content_block_start/delta/stop with
 * `text_delta` and `input_json_delta`, message_delta with the stop reason and
 * usage, message_stop), `error` events mid-stream, and the real error bodies
 * and status codes. `POST /v1/messages/count_tokens` counts with
 * `estimateFakeInputTokens`. In strict mode (the default) a request the real
 * API would refuse gets its 400 (see `checkMessagesRequest`). Other paths
 * answer 404 with a `not_found_error` body. Every request is recorded, minus secrets.
 */
export function startFakeAnthropicServer(options: StartFakeAnthropicServerOptions = {}): FakeAnthropicServer {
  const queue: ScriptedReply[] = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];
  const defaultReply = options.defaultReply ?? fakeTextReply("OK");
  const strict = options.strict ?? true;
  const contextWindow = options.contextWindow ?? DEFAULT_FAKE_CONTEXT_WINDOW;
  let messageCount = 0;
  let toolCount = 0;
  const ids = {
    nextMessageId: () => `msg_fake_${String(++messageCount).padStart(4, "0")}`,
    nextToolId: () => `toolu_fake_${String(++toolCount).padStart(4, "0")}`,
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const body = parseBody(await request.text());
      const { headers, hasApiKey, apiKey } = recordHeaders(request.headers);
      const record: RecordedRequest = {
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
        body,
        hasApiKey,
        scripted: false,
        status: 200,
        rejection: null,
      };
      requests.push(record);
      const respond = (response: Response): Response => {
        record.status = response.status;
        return response;
      };
      const reject = (message: string): Response => {
        record.rejection = message;
        return respond(errorResponse({ type: "error", errorType: "invalid_request_error", message }));
      };

      if (options.apiKey !== undefined && apiKey !== options.apiKey) {
        return respond(
          errorResponse({ type: "error", errorType: "authentication_error", message: "invalid x-api-key" }),
        );
      }
      const endpoint =
        request.method !== "POST"
          ? null
          : url.pathname === MESSAGES_PATH
            ? "messages"
            : url.pathname === COUNT_TOKENS_PATH
              ? "count_tokens"
              : null;
      if (endpoint === null) {
        return respond(
          errorResponse({
            type: "error",
            errorType: "not_found_error",
            message: `no route ${request.method} ${url.pathname}`,
          }),
        );
      }
      const problem = strict ? checkMessagesRequest(body, { endpoint, contextWindow }) : null;
      if (problem !== null) return reject(problem);
      if (endpoint === "count_tokens") return respond(Response.json({ input_tokens: estimateFakeInputTokens(body) }));

      const view: FakeRequestView = { path: record.path, body };
      const wantsScript = options.isScripted?.(view) ?? true;
      const next = wantsScript ? queue.shift() : undefined;
      record.scripted = next !== undefined;
      const reply = resolveReply(next ?? defaultReply, view);
      if (reply.type === "error") return respond(errorResponse(reply));
      const streaming = isObject(body) && body.stream === true;
      if (reply.type === "stream-error" && !streaming) {
        return respond(errorResponse({ type: "error", errorType: reply.errorType, message: reply.message }));
      }

      const message = buildFakeMessage(
        reply.type === "stream-error"
          ? { type: "message", content: reply.text === undefined ? [] : [{ type: "text", text: reply.text }] }
          : reply,
        body,
        ids,
      );
      if (!streaming) return respond(Response.json(message, { headers: { "request-id": requestId(requests.length) } }));
      const streamError: FakeStreamError | undefined =
        reply.type === "stream-error" ? { type: reply.errorType, message: reply.message } : undefined;
      const events = encodeMessageEvents(message, streamError);
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
    messageRequests: () =>
      requests.filter((request) => request.method === "POST" && request.path.split("?")[0] === MESSAGES_PATH),
    rejectedRequests: () => requests.filter((request) => request.rejection !== null),
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    remaining: () => queue.length,
    close: async () => {
      await server.stop(true);
    },
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
