import { addUsage, type StepSummary, ZERO_USAGE } from "@uwf/protocol";
import { formatDuration } from "../text/format-duration.ts";

/**
 * The one line `uwf run` and `uwf step --all` end with on stderr: what the command did, summed —
 * `total: 5 steps · 12,345 tokens (12,000 in, 345 out) · $0.0123 · 4.2s`. Time is the command's wall
 * time; tokens and cost are its steps' (an agent that reports no usage counts 0).
 */
export function formatRunTotals(steps: readonly StepSummary[], elapsedMs: number): string {
  const usage = steps.reduce((sum, step) => (step.usage === null ? sum : addUsage(sum, step.usage)), ZERO_USAGE);
  const tokens = usage.inputTokens + usage.outputTokens;
  const split =
    tokens === 0
      ? ""
      : ` (${usage.inputTokens.toLocaleString("en-US")} in, ${usage.outputTokens.toLocaleString("en-US")} out)`;
  const count = `${steps.length} step${steps.length === 1 ? "" : "s"}`;
  return `total: ${count} · ${tokens.toLocaleString("en-US")} tokens${split} · $${usage.costUsd.toFixed(4)} · ${formatDuration(elapsedMs)}`;
}
