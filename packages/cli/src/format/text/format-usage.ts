import type { Usage } from "@uwf/protocol";

/** `1,234 in · 567 out · $0.0123`, or "" when nothing was used. */
export function formatUsage(usage: Usage | null): string {
  if (usage === null || (usage.inputTokens === 0 && usage.outputTokens === 0 && usage.costUsd === 0)) return "";
  return `${usage.inputTokens.toLocaleString("en-US")} in · ${usage.outputTokens.toLocaleString("en-US")} out · $${usage.costUsd.toFixed(4)}`;
}
