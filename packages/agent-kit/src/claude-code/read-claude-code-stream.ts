import { isObject, type ModelUsage, type PermissionDenial } from "@uwf/protocol";
import { TailBuffer } from "../process/tail-buffer.ts";

/** Token counts without a price. */
export interface ClaudeCodeTokens {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** What uwf keeps of Claude Code's `result` messages. */
export interface ClaudeCodeResult {
  /** The final reply text (of the last result). */
  result: string;
  sessionId: string | null;
  isError: boolean;
  /** `success`, `error_max_turns`, `error_during_execution`... */
  subtype: string | null;
  /** Claude Code's own messages for a failed run (`errors`). */
  errors: string[];
  /** The HTTP status of the API error that ended the run, if any. */
  apiErrorStatus: number | null;
  /** Model turns (`num_turns`), summed over the results. */
  turns: number;
  /** `usage` summed over the results: the tokens of this run's own conversation (subagents not included). */
  usage: ClaudeCodeTokens;
  /** `modelUsage` of the last result: tokens and Claude Code's cost per model, as running totals. */
  modelUsage: ModelUsage | null;
  /** `total_cost_usd` of the last result, a running total too. */
  totalCostUsd: number | null;
  permissionDenials: PermissionDenial[];
}

/** One assistant message of the stream: a model turn, perhaps with tool calls. */
export interface ClaudeCodeTurn {
  /** Turns of the main conversation so far (a subagent's turns do not count). */
  turns: number;
  /** The tools this message calls, in order. */
  tools: string[];
  /** True for a subagent's message. */
  subagent: boolean;
}

export interface ClaudeCodeStream {
  /** The session id Claude Code announced (in its `init` message or any other). */
  sessionId: string | null;
  /** The main model, from the `init` message. */
  model: string | null;
  result: ClaudeCodeResult | null;
  /** The last lines of stdout that were not JSON messages (an error printed as text). */
  otherOutput: string;
}

export interface ClaudeCodeStreamReader {
  /** Feeds a chunk of stdout; complete lines are read at once. */
  push(chunk: string): void;
  /** Reads what is left and returns what the stream said. */
  finish(): ClaudeCodeStream;
}

const OTHER_OUTPUT_LENGTH = 4_096;

/**
 * Reads Claude Code's `--output-format stream-json` output as it comes: one
 * JSON message per line (`system` init, `assistant` and `user` messages, one
 * or more `result`s). `onTurn` is told of every assistant message. A single
 * JSON result (`--output-format json`), or an array of messages, is read the
 * same way. Lines that are not JSON are kept, last ones first, for errors.
 */
export function createClaudeCodeStreamReader(onTurn?: (turn: ClaudeCodeTurn) => void): ClaudeCodeStreamReader {
  let pending = "";
  let sessionId: string | null = null;
  let model: string | null = null;
  let result: ClaudeCodeResult | null = null;
  const turnIds = new Set<string>();
  const otherOutput = new TailBuffer(OTHER_OUTPUT_LENGTH);

  const readMessage = (message: Record<string, unknown>) => {
    const session = text(message.session_id);
    if (session !== null) sessionId = session;
    if (message.type === "system" && message.subtype === "init") model = text(message.model) ?? model;
    if (message.type === "assistant" && isObject(message.message)) {
      const subagent = message.parent_tool_use_id !== null && message.parent_tool_use_id !== undefined;
      // A message with several content blocks comes as several events with the same id.
      const id = text(message.message.id);
      if (!subagent) turnIds.add(id ?? `turn-${turnIds.size}`);
      const content = Array.isArray(message.message.content) ? message.message.content : [];
      const tools = content.flatMap((block) =>
        isObject(block) && block.type === "tool_use" && typeof block.name === "string" ? [block.name] : [],
      );
      onTurn?.({ turns: turnIds.size, tools, subagent });
    }
    if (message.type === "result") result = mergeResult(result, message);
  };

  const readLine = (line: string) => {
    const trimmed = line.trim();
    if (trimmed === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      otherOutput.append(`${trimmed}\n`);
      return;
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) if (isObject(message)) readMessage(message);
  };

  return {
    push(chunk) {
      // A long line (a big tool result) comes in many chunks: split only when one ends.
      const newline = chunk.lastIndexOf("\n");
      if (newline === -1) {
        pending += chunk;
        return;
      }
      const complete = pending + chunk.slice(0, newline);
      pending = chunk.slice(newline + 1);
      for (const line of complete.split("\n")) readLine(line);
    },
    finish() {
      readLine(pending);
      pending = "";
      return { sessionId: result?.sessionId ?? sessionId, model, result, otherOutput: otherOutput.toString() };
    },
  };
}

/** Reads a whole stdout at once (for tests and callers that buffered it). */
export function readClaudeCodeOutput(stdout: string): ClaudeCodeStream {
  const reader = createClaudeCodeStreamReader();
  reader.push(stdout);
  return reader.finish();
}

/**
 * A run that starts background work ends with more than one result: each covers
 * what happened since the one before, except `modelUsage` and
 * `total_cost_usd`, which are running totals (the last one counts).
 */
function mergeResult(previous: ClaudeCodeResult | null, message: Record<string, unknown>): ClaudeCodeResult {
  const usage = isObject(message.usage) ? message.usage : {};
  const tokens: ClaudeCodeTokens = {
    inputTokens: count(usage.input_tokens),
    outputTokens: count(usage.output_tokens),
    cacheReadTokens: count(usage.cache_read_input_tokens),
    cacheWriteTokens: count(usage.cache_creation_input_tokens),
  };
  const denials = [...(previous?.permissionDenials ?? [])];
  for (const denial of Array.isArray(message.permission_denials) ? message.permission_denials : []) {
    if (!isObject(denial)) continue;
    const entry: PermissionDenial = {
      tool: text(denial.tool_name) ?? "unknown",
      toolUseId: text(denial.tool_use_id),
      input: denial.tool_input ?? null,
    };
    const seen = denials.some((known) =>
      entry.toolUseId === null ? JSON.stringify(known) === JSON.stringify(entry) : known.toolUseId === entry.toolUseId,
    );
    if (!seen) denials.push(entry);
  }
  return {
    result: typeof message.result === "string" ? message.result : "",
    sessionId: text(message.session_id) ?? previous?.sessionId ?? null,
    isError: message.is_error === true,
    subtype: text(message.subtype),
    errors: Array.isArray(message.errors) ? message.errors.map(String) : [],
    apiErrorStatus: typeof message.api_error_status === "number" ? message.api_error_status : null,
    turns: (previous?.turns ?? 0) + count(message.num_turns),
    usage: addTokens(previous?.usage, tokens),
    modelUsage: isObject(message.modelUsage) ? readModelUsage(message.modelUsage) : (previous?.modelUsage ?? null),
    totalCostUsd: dollars(message.total_cost_usd) ?? previous?.totalCostUsd ?? null,
    permissionDenials: denials,
  };
}

/** Claude Code's `modelUsage` (`inputTokens`, `cacheReadInputTokens`, `costUSD`...) as uwf's usage per model. */
function readModelUsage(raw: Record<string, unknown>): ModelUsage {
  const models: ModelUsage = {};
  for (const [model, entry] of Object.entries(raw)) {
    if (!isObject(entry)) continue;
    models[model] = {
      inputTokens: count(entry.inputTokens),
      outputTokens: count(entry.outputTokens),
      cacheReadTokens: count(entry.cacheReadInputTokens),
      cacheWriteTokens: count(entry.cacheCreationInputTokens),
      costUsd: Math.round((dollars(entry.costUSD) ?? 0) * 1e6) / 1e6,
    };
  }
  return models;
}

function addTokens(left: ClaudeCodeTokens | undefined, right: ClaudeCodeTokens): ClaudeCodeTokens {
  if (left === undefined) return right;
  return {
    inputTokens: left.inputTokens + right.inputTokens,
    outputTokens: left.outputTokens + right.outputTokens,
    cacheReadTokens: left.cacheReadTokens + right.cacheReadTokens,
    cacheWriteTokens: left.cacheWriteTokens + right.cacheWriteTokens,
  };
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

function dollars(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}
