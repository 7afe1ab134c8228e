import { describe, expect, it } from "bun:test";
import { parseDocument } from "yaml";
import { describeYamlError } from "./describe-yaml-error.ts";
import { findValueBoundsProblem } from "./find-value-bounds-problem.ts";
import { MAX_YAML_ALIASES, MAX_YAML_NESTING } from "./yaml-limits.ts";
import { yamlToValue } from "./yaml-to-value.ts";

/** `levels` flow lists inside each other under the key `a`: the mapping is level 1. */
function nested(levels: number): string {
  return `a: ${"[".repeat(levels)}${"]".repeat(levels)}\n`;
}

/** A "billion laughs": each level lists the one before ten times. */
function aliasBomb(): string {
  const lines = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]'];
  for (const [index, name] of ["b", "c", "d", "e", "f", "g", "h"].entries()) {
    lines.push(`${name}: &${name} [${Array(10).fill(`*${"abcdefgh"[index]}`).join(", ")}]`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * A hang guard, not a measurement: refusing the alias bomb takes milliseconds, expanding its hundred million
 * strings would not end in time (or at all).
 */
const HANG_GUARD_MS = 20_000;

describe("yamlToValue", () => {
  it("gives the value of a document within the limits", () => {
    expect(yamlToValue(parseDocument("a: &x [1, 2]\nb: *x\n"))).toEqual({
      success: true,
      value: { a: [1, 2], b: [1, 2] },
    });
  });

  it(`accepts ${MAX_YAML_NESTING} levels of nesting and refuses one more, saying where`, () => {
    expect(yamlToValue(parseDocument(nested(MAX_YAML_NESTING - 1))).success).toBe(true);
    const result = yamlToValue(parseDocument(nested(MAX_YAML_NESTING)));
    expect(result).toEqual({
      success: false,
      reason: "too-deep",
      problem: `mappings and lists nest deeper than ${MAX_YAML_NESTING} levels`,
      offset: 3 + MAX_YAML_NESTING - 1,
    });
  });

  it("refuses thousands of levels without recursing over them", () => {
    const document = parseDocument(nested(3000));
    expect(document.errors).toEqual([]);
    const result = yamlToValue(document);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.reason).toBe("too-deep");
  });

  it(
    `refuses more than ${MAX_YAML_ALIASES} alias expansions without expanding them`,
    () => {
      const result = yamlToValue(parseDocument(aliasBomb()));
      expect(result).toEqual({
        success: false,
        reason: "aliases",
        problem: `aliases expand too much (more than ${MAX_YAML_ALIASES} alias expansions)`,
        offset: null,
      });
    },
    HANG_GUARD_MS,
  );

  it("refuses a value that contains itself through an alias", () => {
    const result = yamlToValue(parseDocument("a: &a [*a]\n"));
    expect(result.success).toBe(false);
    if (!result.success)
      expect(result.problem).toBe(`mappings and lists nest deeper than ${MAX_YAML_NESTING} levels once expanded`);
  });

  it("refuses an alias to no anchor instead of throwing", () => {
    const result = yamlToValue(parseDocument("a: *nowhere\n"));
    expect(result.success).toBe(false);
    if (!result.success) expect(result.problem).toContain("Unresolved alias");
  });

  it("refuses a value over the size it is given", () => {
    const result = yamlToValue(parseDocument(`a: &a "${"x".repeat(1000)}"\nb: [*a, *a, *a]\n`), { maxSize: 3000 });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.reason).toBe("too-large");
  });
});

describe("findValueBoundsProblem", () => {
  it("measures a value about as long as its JSON", () => {
    const value = { name: "x", list: [1, true, null, { a: "bc" }] };
    const json = JSON.stringify(value).length;
    expect(findValueBoundsProblem(value, { maxNesting: 3, maxSize: json })).toBeNull();
    expect(findValueBoundsProblem(value, { maxNesting: 3, maxSize: json - 1 })).toBe("too-large");
    expect(findValueBoundsProblem(value, { maxNesting: 2 })).toBe("too-deep");
  });
});

describe("describeYamlError", () => {
  it("says a stack overflow in the parser is a document nested too deep", () => {
    const document = parseDocument(nested(100_000), { prettyErrors: true });
    const error = document.errors[0];
    expect(error).toBeDefined();
    if (error !== undefined)
      expect(describeYamlError(error)).toBe(`mappings and lists nest deeper than ${MAX_YAML_NESTING} levels`);
  });

  it("keeps the first line of any other error, without its position", () => {
    const error = parseDocument("a: [\n", { prettyErrors: true }).errors[0];
    expect(error).toBeDefined();
    if (error !== undefined) {
      expect(describeYamlError(error)).not.toContain("\n");
      expect(describeYamlError(error)).not.toMatch(/at line \d+/);
    }
  });
});
