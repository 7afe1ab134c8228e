/**
 * Scripted replies of the fake Chat Completions server, and small builders for them. A reply is a
 * completion (text and tool calls) or an API error; a function builds one from the request it answers.
 */
import type { FakeRequestView } from "./fake-replies.ts";

export interface FakeChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Of `prompt_tokens`, read from the server's prompt cache (`prompt_tokens_details.cached_tokens`). */
  cached_tokens: number;
}

export interface FakeChatToolCall {
  name: string;
  /** An object is sent as its JSON; a string is sent as it is (to script arguments that are not JSON). */
  arguments: Record<string, unknown> | string;
  id?: string;
}

export type FakeChatFinishReason = "stop" | "tool_calls" | "length" | "content_filter";

export interface FakeChatMessageReply {
  type: "message";
  content?: string;
  toolCalls?: FakeChatToolCall[];
  /** A refusal (`message.refusal`), sent instead of content. */
  refusal?: string;
  /** Default: `tool_calls` when there are tool calls, else `stop` (`length` when the request's limit cuts it). */
  finishReason?: FakeChatFinishReason;
  /** Default: the request's estimated size and the reply's (four characters a token). */
  usage?: Partial<FakeChatUsage>;
  /** Default: the model the request named. */
  model?: string;
}

/** The API's errors the fake sends, each with the real status, `type` and `code`. */
export const FAKE_CHAT_ERRORS = {
  rate_limit_exceeded: { status: 429, type: "requests", message: "Rate limit reached for requests" },
  insufficient_quota: { status: 429, type: "insufficient_quota", message: "You exceeded your current quota" },
  server_error: {
    status: 500,
    type: "server_error",
    message: "The server had an error while processing your request.",
  },
  service_unavailable: { status: 503, type: "server_error", message: "The engine is currently overloaded." },
  invalid_api_key: { status: 401, type: "invalid_request_error", message: "Incorrect API key provided." },
  model_not_found: {
    status: 404,
    type: "invalid_request_error",
    message: "The model does not exist or you do not have access to it.",
  },
  context_length_exceeded: {
    status: 400,
    type: "invalid_request_error",
    message: "This model's maximum context length is exceeded.",
  },
  invalid_request_error: { status: 400, type: "invalid_request_error", message: "Invalid request." },
} as const;
export type FakeChatErrorCode = keyof typeof FAKE_CHAT_ERRORS;

export interface FakeChatErrorReply {
  type: "error";
  code: FakeChatErrorCode;
  message: string;
  /** Default: the status the real API sends for `code`. */
  status?: number;
  headers?: Record<string, string>;
}

/** An error after the stream started: HTTP 200, some chunks, then a `data: {"error": …}` chunk; a request that does not stream gets the error's status. */
export interface FakeChatStreamErrorReply {
  type: "stream-error";
  code: FakeChatErrorCode;
  message: string;
  /** Text streamed before the error. */
  text?: string;
}

export type FakeChatReply = FakeChatMessageReply | FakeChatErrorReply | FakeChatStreamErrorReply;
export type ScriptedChatReply = FakeChatReply | ((request: FakeRequestView) => FakeChatReply);

/** A final answer. */
export function fakeChatTextReply(text: string, usage?: Partial<FakeChatUsage>): FakeChatMessageReply {
  return { type: "message", content: text, ...(usage === undefined ? {} : { usage }) };
}

/** A turn that calls one or more tools, optionally after some text. */
export function fakeChatToolCallReply(
  calls: FakeChatToolCall | FakeChatToolCall[],
  options: { text?: string; usage?: Partial<FakeChatUsage> } = {},
): FakeChatMessageReply {
  return {
    type: "message",
    toolCalls: Array.isArray(calls) ? calls : [calls],
    ...(options.text === undefined ? {} : { content: options.text }),
    ...(options.usage === undefined ? {} : { usage: options.usage }),
  };
}

/** An API error: `fakeChatErrorReply("rate_limit_exceeded", { retryAfter: "0.01" })` answers 429 with `retry-after`. */
export function fakeChatErrorReply(
  code: FakeChatErrorCode,
  options: { message?: string; retryAfter?: string; status?: number; headers?: Record<string, string> } = {},
): FakeChatErrorReply {
  const headers = { ...options.headers };
  if (options.retryAfter !== undefined) headers["retry-after"] = options.retryAfter;
  return {
    type: "error",
    code,
    message: options.message ?? FAKE_CHAT_ERRORS[code].message,
    ...(options.status === undefined ? {} : { status: options.status }),
    headers,
  };
}

/** An error chunk in the middle of a streamed completion (`server_error` by default), after HTTP 200. */
export function fakeChatStreamErrorReply(
  code: FakeChatErrorCode = "server_error",
  options: { message?: string; text?: string } = {},
): FakeChatStreamErrorReply {
  return {
    type: "stream-error",
    code,
    message: options.message ?? FAKE_CHAT_ERRORS[code].message,
    ...(options.text === undefined ? {} : { text: options.text }),
  };
}
