import type { LogResult } from "@uwf/protocol";
import { createPalette } from "./create-palette.ts";
import { formatDuration, formatTimestamp } from "./format-duration.ts";
import { formatTable } from "./format-table.ts";
import { formatUsage } from "./format-usage.ts";

export function formatLog(result: LogResult, color: boolean): string {
  const paint = createPalette(color);
  if (result.steps.length === 0) return `thread ${result.thread} has no steps yet`;
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
  return formatTable(["#", "STEP", "ROLE", "AGENT", "STATUS", "STARTED", "TOOK", "USAGE"], rows);
}
