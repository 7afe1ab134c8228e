import { formatCost, formatCount, formatDelta, formatDuration, formatRate } from "../format/format-number.ts";

/** A comparison metric (compareSummaries' names) in words, and how its values are written. */
export function describeMetric(metric: string): { label: string; format: (value: number) => string } {
  if (metric === "passRate") return { label: "pass rate", format: formatRate };
  if (metric === "meanScore") return { label: "mean score", format: formatRate };
  if (metric === "errored") return { label: "errored", format: formatCount };
  if (metric.startsWith("assertion:"))
    return { label: `assertion ${metric.slice("assertion:".length)}`, format: formatRate };
  const [name, percentile] = metric.split(".");
  const label = `${name === "costUsd" ? "cost" : name === "durationMs" ? "duration" : name} ${percentile ?? ""}`.trim();
  if (name === "costUsd") return { label, format: formatCost };
  if (name === "durationMs") return { label, format: formatDuration };
  return { label, format: formatCount };
}

/**
 * Whether a change of a metric is good news (up for rates and scores, down for cost, steps, tokens,
 * duration and errors), bad news, or none.
 */
export function judgeDelta(metric: string, delta: number | null): "good" | "bad" | null {
  if (delta === null || Math.abs(delta) < 1e-12) return null;
  const higherIsBetter = metric === "passRate" || metric === "meanScore" || metric.startsWith("assertion:");
  return delta > 0 === higherIsBetter ? "good" : "bad";
}

/** A metric's delta, signed, written as its values are. */
export function formatMetricDelta(metric: string, delta: number | null): string {
  return formatDelta(delta, describeMetric(metric).format);
}
