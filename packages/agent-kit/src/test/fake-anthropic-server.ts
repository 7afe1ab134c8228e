import { isObject } from "@uwf/protocol";
import { buildFakeMessage } from "./build-fake-message.ts";
import { checkMessagesRequest } from "./check-messages-request.ts";
import { estimateFakeInputTokens } from "./estimate-fake-input-tokens.ts";
import { eventStreamResponse, type RecordedRequest, startFakeApiServer } from "./fake-api-server.ts";
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
export type { RecordedRequest } from "./fake-api-server.ts";

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
  const defaultReply = options.defaultReply ?? fakeTextReply("OK");
  const strict = options.strict ?? true;
  const contextWindow = options.contextWindow ?? DEFAULT_FAKE_CONTEXT_WINDOW;
  let messageCount = 0;
  let toolCount = 0;
  const ids = {
    nextMessageId: () => `msg_fake_${String(++messageCount).padStart(4, "0")}`,
    nextToolId: () => `toolu_fake_${String(++toolCount).padStart(4, "0")}`,
  };

  const server = startFakeApiServer<ScriptedReply>({
    replies: options.replies,
    secretHeaders: SECRET_HEADERS,
    readApiKey: (headers) =>
      headers.get("x-api-key") ?? headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? null,
    handle({ request, url, body, apiKey, record, requestId, takeScripted }) {
      if (options.apiKey !== undefined && apiKey !== options.apiKey) {
        return errorResponse({ type: "error", errorType: "authentication_error", message: "invalid x-api-key" });
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
        return errorResponse({
          type: "error",
          errorType: "not_found_error",
          message: `no route ${request.method} ${url.pathname}`,
        });
      }
      const problem = strict ? checkMessagesRequest(body, { endpoint, contextWindow }) : null;
      if (problem !== null) {
        record.rejection = problem;
        return errorResponse({ type: "error", errorType: "invalid_request_error", message: problem });
      }
      if (endpoint === "count_tokens") return Response.json({ input_tokens: estimateFakeInputTokens(body) });

      const view: FakeRequestView = { path: record.path, body };
      const wantsScript = options.isScripted?.(view) ?? true;
      const next = wantsScript ? takeScripted() : undefined;
      const reply = resolveReply(next ?? defaultReply, view);
      if (reply.type === "error") return errorResponse(reply);
      const streaming = isObject(body) && body.stream === true;
      if (reply.type === "stream-error" && !streaming) {
        return errorResponse({ type: "error", errorType: reply.errorType, message: reply.message });
      }

      const message = buildFakeMessage(
        reply.type === "stream-error"
          ? { type: "message", content: reply.text === undefined ? [] : [{ type: "text", text: reply.text }] }
          : reply,
        body,
        ids,
      );
      if (!streaming) return Response.json(message, { headers: { "request-id": requestId } });
      const streamError: FakeStreamError | undefined =
        reply.type === "stream-error" ? { type: reply.errorType, message: reply.message } : undefined;
      return eventStreamResponse(encodeMessageEvents(message, streamError), { "request-id": requestId });
    },
  });

  return {
    url: server.origin,
    requests: server.requests,
    scriptedRequests: server.scriptedRequests,
    messageRequests: () =>
      server.requests.filter((request) => request.method === "POST" && request.path.split("?")[0] === MESSAGES_PATH),
    rejectedRequests: server.rejectedRequests,
    enqueue: server.enqueue,
    remaining: server.remaining,
    close: server.close,
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
