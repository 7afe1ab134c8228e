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

export type FakeReply = FakeMessageReply | FakeErrorReply;

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
