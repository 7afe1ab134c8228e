import { describe, expect, it } from "bun:test";
import { wilsonInterval } from "./wilson-interval.ts";

describe("wilsonInterval", () => {
  it("gives [0.4902, 0.9433] for 8 of 10", () => {
    const interval = wilsonInterval(8, 10);
    expect(interval?.low).toBeCloseTo(0.4902, 4);
    expect(interval?.high).toBeCloseTo(0.9433, 4);
  });

  it("stays inside [0, 1] at the edges: 0 of 10 and 10 of 10", () => {
    expect(wilsonInterval(0, 10)?.low).toBe(0);
    expect(wilsonInterval(0, 10)?.high).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(10, 10)?.low).toBeCloseTo(0.7225, 4);
    expect(wilsonInterval(10, 10)?.high).toBe(1);
  });

  it("is wide for one sample and narrows as samples grow", () => {
    const one = wilsonInterval(1, 1);
    expect(one?.low).toBeCloseTo(0.2065, 4);
    const many = wilsonInterval(80, 100);
    expect(many?.low).toBeCloseTo(0.7112, 4);
    expect(many?.high).toBeCloseTo(0.8666, 4);
  });

  it("has no interval without trials", () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});
