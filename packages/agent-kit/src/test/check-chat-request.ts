import { isObject } from "@uwf/protocol";
/** The top-level fields the real Chat Completions API accepts; any other is refused. */
export const CHAT_REQUEST_FIELDS: ReadonlySet<string> = new Set([
  "model",
  "messages",
  "audio",
  "frequency_penalty",
  "logit_bias",
  "logprobs",
  "max_completion_tokens",
  "max_tokens",
  "metadata",
  "modalities",
  "n",
  "parallel_tool_calls",
  "prediction",
  "presence_penalty",
  "prompt_cache_key",
  "reasoning_effort",
  "response_format",
  "safety_identifier",
  "seed",
  "service_tier",
  "stop",
  "store",
  "stream",
  "stream_options",
  "temperature",
  "tool_choice",
  "tools",
  "top_logprobs",
  "top_p",
  "user",
  "verbosity",
  "web_search_options",
]);

/** What the Chat Completions API accepts as a function name. */
export const CHAT_FUNCTION_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const ROLES = ["system", "developer", "user", "assistant", "tool"];
const MESSAGE_FIELDS: Record<string, ReadonlySet<string>> = {
  system: new Set(["role", "content", "name"]),
  developer: new Set(["role", "content", "name"]),
  user: new Set(["role", "content", "name"]),
  assistant: new Set(["role", "content", "name", "tool_calls", "refusal", "audio"]),
  tool: new Set(["role", "content", "tool_call_id"]),
};

/** A refused request: the 400 body's `message`, `param` and `code`, as the real API words them. */
export interface ChatRequestProblem {
  message: string;
  param: string | null;
  code: string | null;
}

/**
 * The problem the real Chat Completions API reports for a request body, or null: unknown top-level
 * fields, a missing model or messages, both `max_tokens` and `max_completion_tokens`, `stream_options`
 * without `stream`, malformed tools (function names, unique, `parameters` an object schema), unknown
 * roles or message fields, a message without content, and broken tool-call pairing — every assistant
 * `tool_calls` entry answered by exactly one `tool` message right after it (before any other message),
 * and every `tool` message answering a call of that assistant message.
 */
export function checkChatRequest(body: unknown): ChatRequestProblem | null {
  if (!isObject(body)) return problem("We could not parse the JSON body of your request.", null, null);
  for (const key of Object.keys(body)) {
    if (!CHAT_REQUEST_FIELDS.has(key)) return problem(`Unrecognized request argument supplied: ${key}`, null, null);
  }
  if (typeof body.model !== "string" || body.model === "") {
    return problem("you must provide a model parameter", "model", null);
  }
  if (body.max_tokens !== undefined && body.max_completion_tokens !== undefined) {
    return problem(
      "max_tokens and max_completion_tokens cannot both be set. Use max_completion_tokens.",
      "max_tokens",
      "invalid_parameter",
    );
  }
  for (const field of ["max_tokens", "max_completion_tokens"]) {
    const value = body[field];
    if (value !== undefined && value !== null && !(Number.isInteger(value) && (value as number) >= 1)) {
      return problem(`Invalid '${field}': integer below minimum value.`, field, "integer_below_min_value");
    }
  }
  if (body.stream_options !== undefined && body.stream !== true) {
    return problem("The 'stream_options' parameter is only allowed when 'stream' is enabled.", "stream_options", null);
  }
  const tools = checkTools(body.tools);
  if (tools !== null) return tools;
  const forced =
    isObject(body.tool_choice) && isObject(body.tool_choice.function) ? body.tool_choice.function.name : undefined;
  const offered = Array.isArray(body.tools)
    ? body.tools.map((tool) => (tool as { function: { name: unknown } }).function.name)
    : [];
  if (forced !== undefined && !offered.includes(forced)) {
    return problem(
      `Invalid value for 'tool_choice': function '${String(forced)}' is not among the request's tools.`,
      "tool_choice",
      "invalid_value",
    );
  }
  return checkMessages(body.messages);
}

function checkTools(tools: unknown): ChatRequestProblem | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return problem("Invalid type for 'tools': expected an array.", "tools", "invalid_type");
  if (tools.length === 0) {
    return problem("Invalid 'tools': empty array. Expected an array with minimum length 1.", "tools", "empty_array");
  }
  const names = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    const at = `tools[${index}]`;
    if (!isObject(tool) || tool.type !== "function" || !isObject(tool.function)) {
      return problem(`Missing required parameter: '${at}.function'.`, `${at}.function`, "missing_required_parameter");
    }
    for (const key of Object.keys(tool)) {
      if (key !== "type" && key !== "function")
        return problem(`Unknown parameter: '${at}.${key}'.`, `${at}.${key}`, "unknown_parameter");
    }
    const fn = tool.function;
    for (const key of Object.keys(fn)) {
      if (!["name", "description", "parameters", "strict"].includes(key)) {
        return problem(`Unknown parameter: '${at}.function.${key}'.`, `${at}.function.${key}`, "unknown_parameter");
      }
    }
    const name = typeof fn.name === "string" ? fn.name : "";
    if (!CHAT_FUNCTION_NAME_PATTERN.test(name)) {
      return problem(
        `Invalid '${at}.function.name': string does not match pattern. Expected a string that matches the pattern '${CHAT_FUNCTION_NAME_PATTERN.source}'.`,
        `${at}.function.name`,
        "invalid_value",
      );
    }
    if (names.has(name)) return problem(`Duplicate function name '${name}' in tools.`, "tools", null);
    names.add(name);
    if (fn.parameters !== undefined && (!isObject(fn.parameters) || fn.parameters.type !== "object")) {
      return problem(
        `Invalid schema for function '${name}': schema must be a JSON Schema of 'type: "object"'.`,
        `${at}.function.parameters`,
        "invalid_function_parameters",
      );
    }
  }
  return null;
}

function checkMessages(messages: unknown): ChatRequestProblem | null {
  if (messages === undefined)
    return problem("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
  if (!Array.isArray(messages))
    return problem("Invalid type for 'messages': expected an array.", "messages", "invalid_type");
  if (messages.length === 0) {
    return problem(
      "Invalid 'messages': empty array. Expected an array with minimum length 1.",
      "messages",
      "empty_array",
    );
  }
  /** The calls of the last assistant message not answered yet; null when no tool message may come. */
  let open: Set<string> | null = null;
  for (const [index, message] of messages.entries()) {
    const at = `messages[${index}]`;
    if (!isObject(message)) return problem(`Invalid type for '${at}': expected an object.`, at, "invalid_type");
    const role = message.role;
    if (typeof role !== "string" || !ROLES.includes(role)) {
      return problem(
        `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        `${at}.role`,
        "invalid_value",
      );
    }
    for (const key of Object.keys(message)) {
      if (!MESSAGE_FIELDS[role]?.has(key))
        return problem(`Unknown parameter: '${at}.${key}'.`, `${at}.${key}`, "unknown_parameter");
    }
    if (role === "tool") {
      const id = message.tool_call_id;
      if (typeof id !== "string") {
        return problem(
          `Missing required parameter: '${at}.tool_call_id'.`,
          `${at}.tool_call_id`,
          "missing_required_parameter",
        );
      }
      if (open === null || !open.has(id)) {
        return problem(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `${at}.role`,
          null,
        );
      }
      open.delete(id);
      if (!isText(message.content))
        return problem(`Invalid type for '${at}.content': expected a string.`, `${at}.content`, "invalid_type");
      continue;
    }
    if (open !== null && open.size > 0) return unanswered(open, at);
    open = null;
    if (role === "assistant") {
      const calls = message.tool_calls;
      const hasCalls = Array.isArray(calls) && calls.length > 0;
      if (calls !== undefined && !Array.isArray(calls))
        return problem(`Invalid type for '${at}.tool_calls': expected an array.`, `${at}.tool_calls`, "invalid_type");
      if (!hasCalls && !isText(message.content)) {
        return problem(
          `Invalid value for '${at}.content': expected a string or an array, got null.`,
          `${at}.content`,
          "invalid_type",
        );
      }
      if (message.content !== null && message.content !== undefined && !isText(message.content)) {
        return problem(`Invalid type for '${at}.content': expected a string.`, `${at}.content`, "invalid_type");
      }
      if (hasCalls) {
        open = new Set();
        for (const [callIndex, call] of (calls as unknown[]).entries()) {
          const callAt = `${at}.tool_calls[${callIndex}]`;
          if (!isObject(call) || typeof call.id !== "string" || call.type !== "function" || !isObject(call.function)) {
            return problem(`Missing required parameter: '${callAt}.id'.`, `${callAt}`, "missing_required_parameter");
          }
          if (typeof call.function.name !== "string" || typeof call.function.arguments !== "string") {
            return problem(
              `Invalid type for '${callAt}.function.arguments': expected a string.`,
              `${callAt}.function`,
              "invalid_type",
            );
          }
          open.add(call.id);
        }
      }
      continue;
    }
    if (!isText(message.content)) {
      return problem(
        `Invalid type for '${at}.content': expected a string or an array of content parts.`,
        `${at}.content`,
        "invalid_type",
      );
    }
  }
  if (open !== null && open.size > 0) return unanswered(open, "messages");
  return null;
}

function unanswered(open: ReadonlySet<string>, at: string): ChatRequestProblem {
  return problem(
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(", ")}`,
    at,
    null,
  );
}

/** A string, or an array of `{ type: "text", text }` parts. */
function isText(content: unknown): boolean {
  if (typeof content === "string") return true;
  return (
    Array.isArray(content) &&
    content.length > 0 &&
    content.every((part) => isObject(part) && part.type === "text" && typeof part.text === "string")
  );
}

function problem(message: string, param: string | null, code: string | null): ChatRequestProblem {
  return { message, param, code };
}
