import type { EvalDistribution } from "@uwf/protocol";

/**
 * The nearest-rank percentile of sorted values: the smallest value with at least `percent`% of the values
 * at or below it (the value at rank ⌈percent/100 × n⌉). Always one of the values; undefined with none.
 */
export function nearestRank(sorted: readonly number[], percent: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.max(1, Math.ceil((percent / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1];
}

/** p50, p90 (nearest rank), max, mean and total of the values; null fields (total 0) with none. */
export function summarizeDistribution(values: readonly number[]): EvalDistribution {
  if (values.length === 0) return { p50: null, p90: null, max: null, mean: null, total: 0 };
  const sorted = [...values].sort((left, right) => left - right);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    p50: nearestRank(sorted, 50) ?? null,
    p90: nearestRank(sorted, 90) ?? null,
    max: sorted[sorted.length - 1] ?? null,
    mean: total / sorted.length,
    total,
  };
}
