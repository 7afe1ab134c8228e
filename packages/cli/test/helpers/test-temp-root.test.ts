import { afterEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findTestTempRoot, hasUwfHomeAbove, TEST_TEMP_ROOT } from "./test-temp-root.ts";

let scratch: string;
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe("findTestTempRoot", () => {
  it("passes over a temp folder with a .uwf folder above it, for the next without one", () => {
    scratch = mkdtempSync(join(TEST_TEMP_ROOT, "uwf-temp-root-"));
    const spoiled = join(scratch, "spoiled");
    mkdirSync(join(spoiled, ".uwf"), { recursive: true });
    mkdirSync(join(spoiled, "tmp"));
    const clean = join(scratch, "clean");
    mkdirSync(clean);
    // A file named .uwf is no home: uwf looks for a folder.
    writeFileSync(join(clean, ".uwf"), "");
    expect(hasUwfHomeAbove(join(spoiled, "tmp"))).toBe(true);
    expect(hasUwfHomeAbove(clean)).toBe(false);
    expect(findTestTempRoot([join(spoiled, "tmp"), join(scratch, "missing"), clean])).toBe(clean);
    expect(() => findTestTempRoot([join(spoiled, "tmp")])).toThrow(
      `every temp folder (${join(spoiled, "tmp")}) has a .uwf folder in it or above it`,
    );
  });

  it("gives the tests a root no uwf home lookup can climb out of into a .uwf", () => {
    scratch = mkdtempSync(join(TEST_TEMP_ROOT, "uwf-temp-root-"));
    expect(hasUwfHomeAbove(scratch)).toBe(false);
  });
});
