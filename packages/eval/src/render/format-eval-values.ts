// How the HTML report writes numbers: rates as fractions with two decimals (as the table and Markdown
// do), money in dollars, durations in ms/s/min.

const EMPTY = "–";

/** 0.7 → `0.70`, 0.6667 → `0.67`; null → `–`. */
export function formatRate(rate: number | null): string {
  return rate === null ? EMPTY : rate.toFixed(2);
}

/** A 95% interval as `[0.45, 0.88]`. */
export function formatInterval(interval: { low: number; high: number } | null): string {
  if (interval === null) return EMPTY;
  return `[${interval.low.toFixed(2)}, ${interval.high.toFixed(2)}]`;
}

/** A score in [0, 1] with two decimals. */
export function formatScore(score: number | null): string {
  return score === null ? EMPTY : score.toFixed(2);
}

/** Dollars: four decimals below a dollar, two above. */
export function formatCost(costUsd: number | null): string {
  if (costUsd === null) return EMPTY;
  return `$${costUsd < 1 ? costUsd.toFixed(4) : costUsd.toFixed(2)}`;
}

/** 850 → `850 ms`, 12_300 → `12.3 s`, 192_000 → `3.2 min`. */
export function formatDuration(durationMs: number | null): string {
  if (durationMs === null) return EMPTY;
  if (durationMs < 1000) return `${Math.round(durationMs)} ms`;
  if (durationMs < 120_000) return `${(durationMs / 1000).toFixed(1)} s`;
  return `${(durationMs / 60_000).toFixed(1)} min`;
}

/** A count or a measure with thousands separators; up to two decimals. */
export function formatNumber(value: number | null): string {
  if (value === null) return EMPTY;
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** A metric of a comparison: four significant digits, so small costs and rates stay readable. */
export function formatMetric(value: number | null): string {
  if (value === null) return EMPTY;
  return value.toLocaleString("en-US", { maximumSignificantDigits: 4 });
}

/** A variant's name as the page shows it; selected threads have none. */
export function variantLabel(variant: string | null): string {
  return variant ?? "(all threads)";
}

/** A case's name as the page shows it. */
export function caseLabel(caseName: string | null): string {
  return caseName ?? "(no case)";
}
