import { isObject } from "@uwf/protocol";
import { checkRequestMessages } from "./check-request-messages.ts";
import { checkRequestTools } from "./check-request-tools.ts";
import { estimateFakeInputTokens } from "./estimate-fake-input-tokens.ts";

/** How many `cache_control` breakpoints one request may hold. */
export const MAX_CACHE_BREAKPOINTS = 4;

export interface CheckMessagesRequestOptions {
  /** `count_tokens` takes the same body minus `max_tokens` and `stream`, and is never too long. */
  endpoint: "messages" | "count_tokens";
  /** The model's context window in tokens (as `estimateFakeInputTokens` counts them). */
  contextWindow: number;
}

/**
 * Why the real Messages API would answer this request body with
 * `400 invalid_request_error`, in its words, or null when it would accept it:
 * the fields it requires, the rules on tools and messages
 * (`checkRequestTools`, `checkRequestMessages`), at most four cache
 * breakpoints, and a prompt that fits the context window
 * (`prompt is too long: N tokens > W maximum`).
 */
export function checkMessagesRequest(body: unknown, options: CheckMessagesRequestOptions): string | null {
  if (!isObject(body)) return "body: Input should be a valid JSON object";
  if (typeof body.model !== "string" || body.model === "") return "model: Field required";
  if (options.endpoint === "messages") {
    if (body.max_tokens === undefined) return "max_tokens: Field required";
    if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) {
      return "max_tokens: Input should be greater than or equal to 1";
    }
  }
  const problem = checkRequestTools(body) ?? checkRequestMessages(body);
  if (problem !== null) return problem;
  const breakpoints = countCacheBreakpoints([body.tools, body.system, body.messages]);
  if (breakpoints > MAX_CACHE_BREAKPOINTS) {
    return `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`;
  }
  if (options.endpoint === "messages") {
    const tokens = estimateFakeInputTokens(body);
    if (tokens > options.contextWindow)
      return `prompt is too long: ${tokens} tokens > ${options.contextWindow} maximum`;
  }
  return null;
}

function countCacheBreakpoints(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countCacheBreakpoints(item), 0);
  if (!isObject(value)) return 0;
  let count = isObject(value.cache_control) ? 1 : 0;
  for (const [key, item] of Object.entries(value)) {
    // A tool's input schema and a tool call's input are data, not blocks.
    if (key !== "cache_control" && key !== "input_schema" && key !== "input") count += countCacheBreakpoints(item);
  }
  return count;
}
