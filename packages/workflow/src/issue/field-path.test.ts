import { describe, expect, it } from "bun:test";
import { formatFieldPath, isFieldPathPrefix } from "./field-path.ts";

describe("formatFieldPath", () => {
  const cases: [(string | number)[], string][] = [
    [[], ""],
    [["name"], "name"],
    [["graph", "reviewer", 1, "condition"], "graph.reviewer[1].condition"],
    [["graph", "$START", "resume"], "graph.$START.resume"],
    [["roles", "a.b", "goal"], 'roles["a.b"].goal'],
  ];
  for (const [path, text] of cases) {
    it(`writes ${JSON.stringify(path)} as ${JSON.stringify(text)}`, () => {
      expect(formatFieldPath(path)).toBe(text);
    });
  }
});

describe("isFieldPathPrefix", () => {
  it("holds for the path itself and its ancestors only", () => {
    expect(isFieldPathPrefix(["roles", "w"], ["roles", "w", "goal"])).toBe(true);
    expect(isFieldPathPrefix(["roles", "w"], ["roles", "w"])).toBe(true);
    expect(isFieldPathPrefix(["roles", "w", "goal"], ["roles", "w"])).toBe(false);
    expect(isFieldPathPrefix(["graph", 0], ["graph", "0"])).toBe(false);
  });
});
