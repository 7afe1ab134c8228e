import { describe, expect, test } from "bun:test";
import { durationSchema } from "./duration.ts";
import { parseDuration } from "./parse-duration.ts";

describe("parseDuration", () => {
  test("reads each unit and sums compound durations", () => {
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("90s")).toBe(90_000);
    expect(parseDuration("15m")).toBe(900_000);
    expect(parseDuration("24h")).toBe(86_400_000);
    expect(parseDuration("2d")).toBe(172_800_000);
    expect(parseDuration("1h30m")).toBe(5_400_000);
  });

  test("refuses what is not a positive duration", () => {
    for (const text of ["", "10", "h", "1.5h", "-1s", "0s", "1 h", "1w", "1h 30m"])
      expect(parseDuration(text)).toBeNull();
  });

  test("the schema names the expected form", () => {
    const result = durationSchema.safeParse("tomorrow");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain("expected a duration");
  });
});
