import type { Usage } from "@uwf/protocol";

/** What uwf keeps of Claude Code's `--output-format json` result. */
export interface ClaudeCodeOutput {
  /** The final reply text. */
  result: string;
  sessionId: string | null;
  usage: Usage | null;
  isError: boolean;
  /** `success`, `error_max_turns`, `error_during_execution`... */
  subtype: string | null;
  numTurns: number | null;
}

/**
 * Reads Claude Code's JSON output: one result object, or (with `--verbose`) an
 * array of messages whose last `type: "result"` entry is the result. Usage is
 * the result's token counts, and `total_cost_usd` Claude Code's own cost
 * estimate. Null when stdout holds no result.
 */
export function parseClaudeCodeOutput(stdout: string): ClaudeCodeOutput | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout.trim());
  } catch {
    const lastLine = stdout.trim().split("\n").at(-1) ?? "";
    try {
      parsed = JSON.parse(lastLine);
    } catch {
      return null;
    }
  }
  const entry = Array.isArray(parsed) ? parsed.findLast((item) => isObject(item) && item.type === "result") : parsed;
  if (!isObject(entry) || entry.type !== "result") return null;
  const rawUsage = isObject(entry.usage) ? entry.usage : null;
  const cost =
    typeof entry.total_cost_usd === "number" && Number.isFinite(entry.total_cost_usd) ? entry.total_cost_usd : 0;
  return {
    result: typeof entry.result === "string" ? entry.result : "",
    sessionId: typeof entry.session_id === "string" && entry.session_id !== "" ? entry.session_id : null,
    usage:
      rawUsage === null
        ? null
        : {
            inputTokens: count(rawUsage.input_tokens),
            outputTokens: count(rawUsage.output_tokens),
            cacheReadTokens: count(rawUsage.cache_read_input_tokens),
            cacheWriteTokens: count(rawUsage.cache_creation_input_tokens),
            costUsd: Math.round(Math.max(0, cost) * 1e6) / 1e6,
          },
    isError: entry.is_error === true,
    subtype: typeof entry.subtype === "string" ? entry.subtype : null,
    numTurns: typeof entry.num_turns === "number" ? entry.num_turns : null,
  };
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
