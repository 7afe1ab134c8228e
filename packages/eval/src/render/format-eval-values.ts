// How the HTML report writes money, durations and measures (in dollars, ms/s/min); its rates, scores and
// intervals are written as the table and Markdown write them (format/format-number.ts).
import { MISSING } from "../format/format-number.ts";

/** Dollars: four decimals below a dollar, two above. */
export function formatCost(costUsd: number | null): string {
  if (costUsd === null) return MISSING;
  return `$${costUsd < 1 ? costUsd.toFixed(4) : costUsd.toFixed(2)}`;
}

/** 850 → `850 ms`, 12_300 → `12.3 s`, 192_000 → `3.2 min`. */
export function formatDuration(durationMs: number | null): string {
  if (durationMs === null) return MISSING;
  if (durationMs < 1000) return `${Math.round(durationMs)} ms`;
  if (durationMs < 120_000) return `${(durationMs / 1000).toFixed(1)} s`;
  return `${(durationMs / 60_000).toFixed(1)} min`;
}

/** A count or a measure with thousands separators; up to two decimals. */
export function formatNumber(value: number | null): string {
  if (value === null) return MISSING;
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** A metric of a comparison: four significant digits, so small costs and rates stay readable. */
export function formatMetric(value: number | null): string {
  if (value === null) return MISSING;
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
