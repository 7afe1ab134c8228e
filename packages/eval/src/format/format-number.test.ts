import { describe, expect, it } from "bun:test";
import {
  formatCost,
  formatCount,
  formatDelta,
  formatDuration,
  formatInterval,
  formatRate,
  formatValue,
} from "./format-number.ts";

describe("the number formats of reports", () => {
  it("writes rates as fractions with two decimals, never percent", () => {
    expect(formatRate(0.8)).toBe("0.80");
    expect(formatRate(1)).toBe("1.00");
    expect(formatRate(null)).toBe("–");
    expect(formatInterval({ low: 0.4902, high: 0.9433 })).toBe("[0.49, 0.94]");
  });

  it("writes cost in dollars, with more decimals under a dollar", () => {
    expect([0, 0.0123, 0.5, 1.234, 250.4].map(formatCost)).toEqual(["$0", "$0.0123", "$0.5000", "$1.23", "$250"]);
  });

  it("writes durations as the CLI does", () => {
    expect([850, 12_340, 245_000, 7_380_000].map(formatDuration)).toEqual(["850ms", "12.3s", "4m05s", "2h03m"]);
  });

  it("writes counts whole, large token counts in k and M, means with one decimal", () => {
    expect([7, 9999, 12_345, 1_234_567, 5.5].map(formatCount)).toEqual(["7", "9999", "12.3k", "1.2M", "5.5"]);
    expect(formatValue(0.123456)).toBe("0.1235");
  });

  it("signs deltas", () => {
    expect(formatDelta(0.1, formatRate)).toBe("+0.10");
    expect(formatDelta(-0.002, formatCost)).toBe("-$0.0020");
    expect(formatDelta(0, formatCount)).toBe("0");
    expect(formatDelta(null, formatCount)).toBe("–");
  });
});
