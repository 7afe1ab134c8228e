import type { LogResult } from "@uwf/protocol";
import { createPalette } from "./create-palette.ts";
import { formatBudget } from "./describe-budget.ts";
import { formatDuration, formatTimestamp } from "./format-duration.ts";
import { describeOutcome } from "./format-step-result.ts";
import { formatTable } from "./format-table.ts";
import { formatUsage } from "./format-usage.ts";

export function formatLog(result: LogResult, color: boolean): string {
  const paint = createPalette(color);
  const failed = result.failedUsage === undefined ? "" : formatUsage(result.failedUsage);
  const failedLine = failed === "" ? "" : `\n${paint.dim("failed runs (not steps):")} ${failed}`;
  const budgetLine = result.budget === undefined ? "" : `\n${paint.dim("budget:")} ${formatBudget(result.budget)}`;
  const outcomeLine =
    result.outcome === undefined ? "" : `\n${paint.dim("outcome:")} ${describeOutcome(result.outcome)}`;
  const closing = outcomeLine + failedLine + budgetLine;
  const attempts = (result.failed ?? []).map((attempt) => [
    String(attempt.number),
    attempt.run ?? "",
    paint.bold(attempt.role ?? "?"),
    "",
    paint.red(`FAILED ${attempt.code}`),
    formatTimestamp(attempt.failedAt),
    "",
    `${attempt.attempts} attempt${attempt.attempts === 1 ? "" : "s"}: ${cut(attempt.message)}`,
  ]);
  if (result.steps.length === 0 && attempts.length === 0) return `thread ${result.thread} has no steps yet${closing}`;
  const rows = result.steps.map((step) => [
    String(step.number),
    step.address,
    paint.bold(step.role),
    step.agent,
    step.status ?? "",
    formatTimestamp(step.startedAt),
    formatDuration(step.durationMs),
    formatUsage(step.usage),
  ]);
  // A failed attempt's STEP column holds the run it left (`uwf show RUN`): no step node was written.
  return (
    formatTable(["#", "STEP", "ROLE", "AGENT", "STATUS", "STARTED", "TOOK", "USAGE"], [...rows, ...attempts]) + closing
  );
}

/** The first line of a failure's message, cut to fit a table. */
function cut(message: string): string {
  const line = message.split("\n")[0] ?? "";
  return line.length <= 60 ? line : `${line.slice(0, 59)}…`;
}
