import { describe, expect, it } from "bun:test";
import { join, resolve } from "node:path";
import { isPathInside } from "./is-path-inside.ts";

const folder = resolve("/work/folder");

describe("isPathInside", () => {
  it("counts the folder itself as inside", () => {
    expect(isPathInside(folder, folder)).toBe(true);
  });

  it("accepts a file whose name starts with two dots", () => {
    expect(isPathInside(folder, join(folder, "..x"))).toBe(true);
  });

  it("accepts a file in a subfolder", () => {
    expect(isPathInside(folder, join(folder, "sub", "file.md"))).toBe(true);
  });

  it("refuses the parent folder", () => {
    expect(isPathInside(folder, resolve(folder, ".."))).toBe(false);
  });

  it("refuses a sibling reached through ..", () => {
    expect(isPathInside(folder, resolve(folder, "../x"))).toBe(false);
  });

  it("refuses a path that climbs out after going down", () => {
    expect(isPathInside(folder, resolve(folder, "a/../../x"))).toBe(false);
  });

  it("refuses an unrelated absolute path", () => {
    expect(isPathInside(folder, resolve("/etc/passwd"))).toBe(false);
  });

  it("refuses a sibling folder whose name starts with the folder's name", () => {
    expect(isPathInside(folder, resolve("/work/folder-other/x"))).toBe(false);
  });
});
