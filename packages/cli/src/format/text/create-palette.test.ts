import { describe, expect, test } from "bun:test";
import { createPalette } from "./create-palette.ts";

describe("createPalette", () => {
  test("without colour, every colour returns its text unchanged", () => {
    const palette = createPalette(false);
    for (const paint of Object.values(palette)) expect(paint("step 3")).toBe("step 3");
    expect(palette.bold(42)).toBe("42");
  });

  test("with colour, wraps text in ANSI escapes whatever the terminal", () => {
    const palette = createPalette(true);
    expect(palette.bold("x")).toBe("\u001b[1mx\u001b[22m");
    expect(palette.red("x")).toBe("\u001b[31mx\u001b[39m");
    expect(Bun.stripANSI(palette.cyan(palette.dim("step 3")))).toBe("step 3");
  });
});
