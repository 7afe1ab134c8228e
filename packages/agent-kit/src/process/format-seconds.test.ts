import { describe, expect, it } from "bun:test";
import { formatSeconds } from "./format-seconds.ts";

describe("formatSeconds", () => {
  it("writes whole seconds without a fraction", () => {
    expect(formatSeconds(30_000)).toBe("30 s");
    expect(formatSeconds(1_000)).toBe("1 s");
  });

  it("writes other durations to a tenth of a second", () => {
    expect(formatSeconds(1_500)).toBe("1.5 s");
    expect(formatSeconds(700)).toBe("0.7 s");
    expect(formatSeconds(12_345)).toBe("12.3 s");
  });
});
