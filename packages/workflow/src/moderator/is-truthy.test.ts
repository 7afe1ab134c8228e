import { describe, expect, it } from "bun:test";
import { isTruthy } from "./is-truthy.ts";

describe("isTruthy", () => {
  const cases: [string, unknown, boolean][] = [
    ["false", false, false],
    ["null", null, false],
    ["undefined", undefined, false],
    ["0", 0, false],
    ["-0", -0, false],
    ["NaN", Number.NaN, false],
    ['""', "", false],
    ["true", true, true],
    ["1", 1, true],
    ["Infinity", Number.POSITIVE_INFINITY, true],
    ['" "', " ", true],
    ["[]", [], true],
    ["{}", {}, true],
    ["a function", () => false, true],
  ];
  for (const [name, value, expected] of cases) {
    it(`calls ${name} ${expected ? "true" : "false"}`, () => {
      expect(isTruthy(value)).toBe(expected);
    });
  }
});
