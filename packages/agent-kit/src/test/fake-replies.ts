/**
 * Scripted replies of the fake Messages API server, and small builders for
 * them. A reply is a message (text and tool calls) or an API error; a function
 * builds one from the request it answers.
 */

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export type FakeContentBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id?: string; name: string; input: Record<string, unknown> };

export type FakeStopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "refusal";

export interface FakeMessageReply {
  type: "message";
  content: FakeContentBlock[];
  /** Default: `tool_use` when the content has a tool call, else `end_turn`. */
  stopReason?: FakeStopReason;
  usage?: Partial<FakeUsage>;
  /** Default: the model the request named. */
  model?: string;
  /** Sent with the stop reason (in `message_delta` when streaming), e.g. a refusal's category and explanation. */
  stopDetails?: Record<string, unknown>;
}

/** The Messages API's error types, each with the HTTP status the real API sends. */
export const FAKE_ERROR_STATUS = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
} as const;
export type FakeErrorType = keyof typeof FAKE_ERROR_STATUS;

export interface FakeErrorReply {
  type: "error";
  errorType: FakeErrorType;
  message: string;
  /** Default: the status the real API sends for `errorType`. */
  status?: number;
  headers?: Record<string, string>;
}

/**
 * An error after the response started: HTTP 200, `message_start`, the text so
 * far, then an `error` event, as the real API sends an overload mid-stream.
 * A request that does not stream gets the error's HTTP status instead.
 */
export interface FakeStreamErrorReply {
  type: "stream-error";
  errorType: FakeErrorType;
  message: string;
  /** Text streamed before the error. Default: none. */
  text?: string;
}

export type FakeReply = FakeMessageReply | FakeErrorReply | FakeStreamErrorReply;

/** What a scripted reply may depend on: the request it answers. */
export interface FakeRequestView {
  path: string;
  body: unknown;
}

export type ScriptedReply = FakeReply | ((request: FakeRequestView) => FakeReply);

/** A final answer: one text block. */
export function fakeTextReply(text: string, usage?: Partial<FakeUsage>): FakeMessageReply {
  return { type: "message", content: [{ type: "text", text }], ...(usage === undefined ? {} : { usage }) };
}

export interface FakeToolCall {
  name: string;
  input: Record<string, unknown>;
  id?: string;
}

/** A turn that calls one or more tools, optionally after some text. */
export function fakeToolUseReply(
  calls: FakeToolCall | FakeToolCall[],
  options: { text?: string; usage?: Partial<FakeUsage> } = {},
): FakeMessageReply {
  const list = Array.isArray(calls) ? calls : [calls];
  const content: FakeContentBlock[] = options.text === undefined ? [] : [{ type: "text", text: options.text }];
  for (const call of list) {
    content.push({
      type: "tool_use",
      name: call.name,
      input: call.input,
      ...(call.id === undefined ? {} : { id: call.id }),
    });
  }
  return {
    type: "message",
    content,
    stopReason: "tool_use",
    ...(options.usage === undefined ? {} : { usage: options.usage }),
  };
}

/**
 * An API error with the real error type and status: `fakeErrorReply("rate_limit_error", { retryAfter: "0.01" })`
 * answers 429 with a `retry-after` header (seconds; the SDK honours fractions).
 */
export function fakeErrorReply(
  errorType: FakeErrorType,
  options: { message?: string; retryAfter?: string; status?: number; headers?: Record<string, string> } = {},
): FakeErrorReply {
  const headers = { ...options.headers };
  if (options.retryAfter !== undefined) headers["retry-after"] = options.retryAfter;
  return {
    type: "error",
    errorType,
    message: options.message ?? DEFAULT_ERROR_MESSAGES[errorType],
    ...(options.status === undefined ? {} : { status: options.status }),
    headers,
  };
}

/** An `error` event in the middle of a streamed response (`overloaded_error` by default), after HTTP 200. */
export function fakeStreamErrorReply(
  errorType: FakeErrorType = "overloaded_error",
  options: { message?: string; text?: string } = {},
): FakeStreamErrorReply {
  return {
    type: "stream-error",
    errorType,
    message: options.message ?? DEFAULT_ERROR_MESSAGES[errorType],
    ...(options.text === undefined ? {} : { text: options.text }),
  };
}

/** A turn the API stopped with `stop_reason: refusal`, with the `stop_details` it sends (and any text before it). */
export function fakeRefusalReply(
  options: { text?: string; category?: string; explanation?: string } = {},
): FakeMessageReply {
  return {
    type: "message",
    content: options.text === undefined ? [] : [{ type: "text", text: options.text }],
    stopReason: "refusal",
    stopDetails: {
      type: "refusal",
      category: options.category ?? "cyber",
      explanation: options.explanation ?? "This request was declined because it could enable cyber harm.",
    },
  };
}

/** A turn cut off by `max_tokens`: the text so far, and a tool call that was being written when the limit hit. */
export function fakeMaxTokensReply(text: string, options: { toolCall?: FakeToolCall } = {}): FakeMessageReply {
  const content: FakeContentBlock[] = text === "" ? [] : [{ type: "text", text }];
  const call = options.toolCall;
  if (call !== undefined) {
    content.push({
      type: "tool_use",
      name: call.name,
      input: call.input,
      ...(call.id === undefined ? {} : { id: call.id }),
    });
  }
  return { type: "message", content, stopReason: "max_tokens" };
}

const DEFAULT_ERROR_MESSAGES: Record<FakeErrorType, string> = {
  invalid_request_error: "messages: field required",
  authentication_error: "invalid x-api-key",
  permission_error: "Your API key does not have permission to use the specified resource.",
  not_found_error: "The requested resource could not be found.",
  request_too_large: "Request exceeds the maximum allowed number of bytes.",
  rate_limit_error: "Number of request tokens has exceeded your per-minute rate limit",
  api_error: "Internal server error",
  overloaded_error: "Overloaded",
};
