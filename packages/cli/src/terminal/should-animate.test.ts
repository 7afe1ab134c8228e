import { describe, expect, it } from "bun:test";
import { shouldAnimate } from "./should-animate.ts";

describe("shouldAnimate", () => {
  it("draws a status line on a terminal that can redraw it, outside CI", () => {
    expect(shouldAnimate({ TERM: "xterm-256color" })).toBe(true);
    expect(shouldAnimate({})).toBe(true);
  });

  it("does not under CI, whatever its value, nor on a dumb terminal", () => {
    for (const value of ["true", "1", "", "false"]) expect(shouldAnimate({ CI: value })).toBe(false);
    expect(shouldAnimate({ TERM: "dumb" })).toBe(false);
  });
});
