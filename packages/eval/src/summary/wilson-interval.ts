/** The normal quantile of a two-sided 95% interval. */
export const Z_95 = 1.959964;

/**
 * The 95% Wilson score interval of `passed` successes in `total` trials, clamped to [0, 1]; null with no
 * trials. Unlike the normal approximation it stays inside [0, 1] and is honest for small samples and rates
 * near 0 or 1 (8 of 10 gives [0.4902, 0.9433]; 10 of 10 gives [0.7225, 1]).
 */
export function wilsonInterval(passed: number, total: number, z: number = Z_95): { low: number; high: number } | null {
  if (total <= 0) return null;
  const rate = passed / total;
  const zSquared = z * z;
  const denominator = 1 + zSquared / total;
  const center = rate + zSquared / (2 * total);
  const margin = z * Math.sqrt((rate * (1 - rate)) / total + zSquared / (4 * total * total));
  // At 0 and at every trial the bound is exactly 0 or 1; rounding would leave 1e-16 away from it.
  return {
    low: passed <= 0 ? 0 : clamp((center - margin) / denominator),
    high: passed >= total ? 1 : clamp((center + margin) / denominator),
  };
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}
