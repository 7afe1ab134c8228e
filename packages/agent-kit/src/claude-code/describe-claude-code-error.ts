import type { ClaudeCodeResult } from "./read-claude-code-stream.ts";

/**
 * A sentence for a Claude Code run that ended in error, from its result:
 * what stopped it (the turn limit, the budget, an error during execution, an
 * API error with its status) and Claude Code's own message. Null when the
 * result is not an error and the exit code is 0.
 */
export function describeClaudeCodeError(result: ClaudeCodeResult, exitCode: number | null): string | null {
  if (!result.isError && (exitCode === 0 || exitCode === null)) return null;
  const message = firstLine(result.errors.join("; ")) || firstLine(result.result);
  const detail = message === "" ? "" : `: ${message}`;
  switch (result.subtype) {
    case "error_max_turns":
      return `Claude Code stopped at its turn limit after ${result.turns} turns (error_max_turns)${detail}`;
    case "error_max_budget_usd":
      return `Claude Code stopped at its budget (error_max_budget_usd)${detail}`;
    case "error_during_execution":
      return `Claude Code failed during execution${detail}`;
  }
  const known = result.subtype === null || result.subtype === "success";
  const status = result.apiErrorStatus === null ? "" : ` (API status ${result.apiErrorStatus})`;
  if (!result.isError) return `Claude Code exited with code ${exitCode}${detail}`;
  return `Claude Code ${known ? "reported an error" : `failed (${result.subtype})`}${status}${detail || ": no message"}`;
}

function firstLine(text: string): string {
  const line = text.trim().split("\n", 1)[0]?.trim() ?? "";
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
