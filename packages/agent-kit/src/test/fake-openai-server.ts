import { isObject } from "@uwf/protocol";
import { buildFakeCompletion } from "./build-fake-completion.ts";
import { checkChatRequest } from "./check-chat-request.ts";
import { eventStreamResponse, type RecordedRequest, startFakeApiServer } from "./fake-api-server.ts";
import { encodeChatChunks } from "./fake-chat-chunks.ts";
import {
  FAKE_CHAT_ERRORS,
  type FakeChatErrorCode,
  type FakeChatReply,
  fakeChatTextReply,
  type ScriptedChatReply,
} from "./fake-chat-replies.ts";
import type { FakeRequestView } from "./fake-replies.ts";

export interface StartFakeOpenaiServerOptions {
  /** Replies to `POST /v1/chat/completions`, in order. More can be added with `enqueue`. */
  replies?: ScriptedChatReply[];
  /** The answer once the script is used up. Default: a text reply "OK". */
  defaultReply?: ScriptedChatReply;
  /** When set, a request without exactly this bearer key gets 401 `invalid_api_key`. A request with no key always gets 401. */
  apiKey?: string;
  /**
   * Refuse what the real API refuses, with its 400 and message (see `checkChatRequest`): unknown
   * fields, bad tools, broken tool-call pairing, bad roles. Default: true. A refused request takes no scripted reply.
   */
  strict?: boolean;
  /**
   * The model's context window in tokens (four characters a token): a request whose messages and tools,
   * plus the output it asks for, do not fit gets 400 `context_length_exceeded`. Default: 128,000.
   */
  contextWindow?: number;
  /** The models `GET /v1/models` lists. Default: none besides those the requests named. */
  models?: string[];
}

export interface FakeOpenaiServer {
  /** `http://127.0.0.1:PORT/v1`: the base URL to give the SDK or `providers.NAME.baseUrl`. */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** The `POST /v1/chat/completions` requests, oldest first. */
  completionRequests(): RecordedRequest[];
  /** The requests that took a scripted reply, oldest first. */
  scriptedRequests(): RecordedRequest[];
  /** The requests refused in strict mode, oldest first. */
  rejectedRequests(): RecordedRequest[];
  enqueue(...replies: ScriptedChatReply[]): void;
  /** Scripted replies not sent yet. */
  remaining(): number;
  close(): Promise<void>;
}

const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "api-key"]);
const COMPLETIONS_PATH = "/v1/chat/completions";
const MODELS_PATH = "/v1/models";
export const DEFAULT_FAKE_OPENAI_CONTEXT_WINDOW = 128_000;

/**
 * A local stand-in for the OpenAI Chat Completions API, for tests: `Bun.serve` on 127.0.0.1 with a
 * free port. `POST /v1/chat/completions` answers from a scripted list, as JSON or, when the request
 * says `stream: true`, as the real chunk sequence (with the usage chunk when `stream_options.include_usage`);
 * it honours `max_tokens` / `max_completion_tokens` (finish reason `length`), refuses a request over
 * the context window with 400 `context_length_exceeded`, and in strict mode (the default) refuses what
 * the real API refuses (`checkChatRequest`). A request without a bearer key gets 401. `GET /v1/models`
 * lists models. Other paths answer 404. Every request is recorded, minus secrets.
 */
export function startFakeOpenaiServer(options: StartFakeOpenaiServerOptions = {}): FakeOpenaiServer {
  const defaultReply = options.defaultReply ?? fakeChatTextReply("OK");
  const strict = options.strict ?? true;
  const contextWindow = options.contextWindow ?? DEFAULT_FAKE_OPENAI_CONTEXT_WINDOW;
  const models = new Set(options.models ?? []);
  let completionCount = 0;
  let callCount = 0;
  const ids = {
    nextCompletionId: () => `chatcmpl-fake-${String(++completionCount).padStart(4, "0")}`,
    nextCallId: () => `call_fake_${String(++callCount).padStart(4, "0")}`,
  };

  const server = startFakeApiServer<ScriptedChatReply>({
    replies: options.replies,
    secretHeaders: SECRET_HEADERS,
    readApiKey: (headers) => {
      const bearer =
        headers
          .get("authorization")
          ?.match(/^Bearer\s+(.+)$/i)?.[1]
          ?.trim() ?? "";
      return bearer === "" ? null : bearer;
    },
    handle({ request, url, body, apiKey, record, requestId, takeScripted }) {
      if (apiKey === null) {
        return errorResponse(401, {
          message:
            "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
          type: "invalid_request_error",
          code: null,
        });
      }
      if (options.apiKey !== undefined && apiKey !== options.apiKey) {
        return errorResponse(401, {
          message: "Incorrect API key provided.",
          type: "invalid_request_error",
          code: "invalid_api_key",
        });
      }
      if (request.method === "GET" && url.pathname === MODELS_PATH) {
        const data = [...models].map((id) => ({ id, object: "model", created: 0, owned_by: "fake" }));
        return Response.json({ object: "list", data });
      }
      if (request.method !== "POST" || url.pathname !== COMPLETIONS_PATH) {
        return errorResponse(404, {
          message: `Invalid URL (${request.method} ${url.pathname})`,
          type: "invalid_request_error",
          code: null,
        });
      }
      const problem = strict ? checkChatRequest(body) : null;
      if (problem !== null) {
        record.rejection = problem.message;
        return errorResponse(400, {
          message: problem.message,
          type: "invalid_request_error",
          param: problem.param,
          code: problem.code,
        });
      }
      const fields = isObject(body) ? body : {};
      const model = typeof fields.model === "string" ? fields.model : "fake-model";
      models.add(model);
      const limit = outputLimit(fields);
      const promptTokens = estimateChatTokens(fields);
      if (promptTokens + (limit ?? 0) > contextWindow) {
        const message = `This model's maximum context length is ${contextWindow} tokens. However, you requested ${promptTokens + (limit ?? 0)} tokens (${promptTokens} in the messages, ${limit ?? 0} in the completion). Please reduce the length of the messages or completion.`;
        return errorResponse(400, {
          message,
          type: "invalid_request_error",
          param: "messages",
          code: "context_length_exceeded",
        });
      }

      const view: FakeRequestView = { path: record.path, body };
      const reply = resolveReply(takeScripted() ?? defaultReply, view);
      if (reply.type === "error") {
        const known = FAKE_CHAT_ERRORS[reply.code];
        return errorResponse(
          reply.status ?? known.status,
          { message: reply.message, type: known.type, code: reply.code },
          reply.headers,
        );
      }
      const streaming = fields.stream === true;
      if (reply.type === "stream-error" && !streaming) {
        const known = FAKE_CHAT_ERRORS[reply.code];
        return errorResponse(known.status, { message: reply.message, type: known.type, code: reply.code });
      }
      const completion = buildFakeCompletion(
        reply.type === "stream-error" ? { type: "message", content: reply.text ?? "" } : reply,
        { model, promptTokens, limit, ...ids },
      );
      if (!streaming) return Response.json(completion, { headers: { "x-request-id": requestId } });
      const includeUsage = isObject(fields.stream_options) && fields.stream_options.include_usage === true;
      const chunks = encodeChatChunks(
        completion,
        includeUsage,
        reply.type === "stream-error" ? errorChunk(reply.code, reply.message) : undefined,
      );
      return eventStreamResponse(chunks, { "x-request-id": requestId });
    },
  });

  const isCompletion = (request: RecordedRequest) =>
    request.method === "POST" && request.path.split("?")[0] === COMPLETIONS_PATH;
  return {
    url: `${server.origin}/v1`,
    requests: server.requests,
    completionRequests: () => server.requests.filter(isCompletion),
    scriptedRequests: server.scriptedRequests,
    rejectedRequests: server.rejectedRequests,
    enqueue: server.enqueue,
    remaining: server.remaining,
    close: server.close,
  };
}

/**
 * The fake's token count of a request's input: the characters of its messages and tools as JSON,
 * divided by four and rounded up.
 */
export function estimateChatTokens(body: Record<string, unknown>): number {
  return Math.ceil(JSON.stringify([body.messages ?? [], body.tools ?? []]).length / 4);
}

function outputLimit(body: Record<string, unknown>): number | null {
  const value = body.max_completion_tokens ?? body.max_tokens;
  return typeof value === "number" ? value : null;
}

function errorChunk(code: FakeChatErrorCode, message: string) {
  return { message, type: FAKE_CHAT_ERRORS[code].type, code };
}

function resolveReply(reply: ScriptedChatReply, view: FakeRequestView): FakeChatReply {
  return typeof reply === "function" ? reply(view) : reply;
}

function errorResponse(
  status: number,
  error: { message: string; type: string; param?: string | null; code: string | null },
  headers: Record<string, string> = {},
): Response {
  return Response.json(
    { error: { message: error.message, type: error.type, param: error.param ?? null, code: error.code } },
    { status, headers: { "x-request-id": `req_fake_error_${status}`, ...headers } },
  );
}
