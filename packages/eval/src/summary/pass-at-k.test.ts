import { describe, expect, it } from "bun:test";
import { passAtK, passAtKTable, passHatK } from "./pass-at-k.ts";

describe("passAtK and passHatK", () => {
  it("match the binomial formulas worked by hand for 3 of 5", () => {
    // pass@2 = 1 − C(2,2)/C(5,2) = 1 − 1/10; pass^2 = C(3,2)/C(5,2) = 3/10.
    expect(passAtK(5, 3, 2)).toBeCloseTo(0.9, 12);
    expect(passHatK(5, 3, 2)).toBeCloseTo(0.3, 12);
    // pass@3 = 1 − C(2,3)/C(5,3) = 1; pass^3 = C(3,3)/C(5,3) = 1/10.
    expect(passAtK(5, 3, 3)).toBe(1);
    expect(passHatK(5, 3, 3)).toBeCloseTo(0.1, 12);
    // k = 1 is the pass rate.
    expect(passAtK(5, 3, 1)).toBeCloseTo(0.6, 12);
    expect(passHatK(5, 3, 1)).toBeCloseTo(0.6, 12);
  });

  it("is 0 and 0 when nothing passed, 1 and 1 when everything did", () => {
    expect(passAtK(4, 0, 2)).toBe(0);
    expect(passHatK(4, 0, 2)).toBe(0);
    expect(passAtK(4, 4, 4)).toBe(1);
    expect(passHatK(4, 4, 4)).toBe(1);
  });

  it("does not overflow on large counts", () => {
    // C(200,100)/C(300,100) underflows nothing as a product: pass@100 is 1 within double precision.
    expect(passAtK(300, 100, 100)).toBeCloseTo(1, 12);
    expect(passHatK(300, 299, 3)).toBeCloseTo(297 / 300, 12);
  });

  it("refuses a k outside 1 … n", () => {
    expect(() => passAtK(3, 1, 4)).toThrow(RangeError);
    expect(() => passHatK(3, 1, 0)).toThrow(RangeError);
  });

  it("tabulates every k from 1 to n", () => {
    const table = passAtKTable(3, 1);
    expect(table.map((row) => row.k)).toEqual([1, 2, 3]);
    expect(table.map((row) => row.passAtK.toFixed(6))).toEqual([(1 / 3).toFixed(6), (2 / 3).toFixed(6), "1.000000"]);
    expect(table.map((row) => row.passHatK.toFixed(6))).toEqual([(1 / 3).toFixed(6), "0.000000", "0.000000"]);
    expect(passAtKTable(0, 0)).toEqual([]);
  });
});
