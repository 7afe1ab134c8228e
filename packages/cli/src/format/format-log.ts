import type { LogResult } from "@uwf/protocol";
import { createPalette } from "./create-palette.ts";
import { formatBudget } from "./describe-budget.ts";
import { formatDuration, formatTimestamp } from "./format-duration.ts";
import { formatTable } from "./format-table.ts";
import { formatUsage } from "./format-usage.ts";

export function formatLog(result: LogResult, color: boolean): string {
  const paint = createPalette(color);
  const failed = result.failedUsage === undefined ? "" : formatUsage(result.failedUsage);
  const failedLine = failed === "" ? "" : `\n${paint.dim("failed runs (not steps):")} ${failed}`;
  const budgetLine = result.budget === undefined ? "" : `\n${paint.dim("budget:")} ${formatBudget(result.budget)}`;
  const closing = failedLine + budgetLine;
  if (result.steps.length === 0) return `thread ${result.thread} has no steps yet${closing}`;
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
  return formatTable(["#", "STEP", "ROLE", "AGENT", "STATUS", "STARTED", "TOOK", "USAGE"], rows) + closing;
}
