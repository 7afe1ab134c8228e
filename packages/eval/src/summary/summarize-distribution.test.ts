import { describe, expect, it } from "bun:test";
import { nearestRank, summarizeDistribution } from "./summarize-distribution.ts";

describe("summarizeDistribution", () => {
  it("takes nearest-rank percentiles: always one of the values", () => {
    // Ranks: p50 = ⌈0.5 × 10⌉ = 5th, p90 = ⌈0.9 × 10⌉ = 9th.
    const values = [10, 1, 9, 2, 8, 3, 7, 4, 6, 5];
    expect(summarizeDistribution(values)).toEqual({ p50: 5, p90: 9, max: 10, mean: 5.5, total: 55 });
  });

  it("gives the one value for every percentile of one sample", () => {
    expect(summarizeDistribution([0.25])).toEqual({ p50: 0.25, p90: 0.25, max: 0.25, mean: 0.25, total: 0.25 });
  });

  it("rounds ranks up: p90 of 4 values is the 4th, p50 of 3 the 2nd", () => {
    expect(nearestRank([1, 2, 3, 4], 90)).toBe(4);
    expect(nearestRank([1, 2, 3], 50)).toBe(2);
    expect(nearestRank([1, 2, 3], 0)).toBe(1);
  });

  it("is null (total 0) with no values", () => {
    expect(summarizeDistribution([])).toEqual({ p50: null, p90: null, max: null, mean: null, total: 0 });
  });
});
