import type { FieldPath } from "../issue/field-path.ts";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";

/** The parts of a zod issue this module reads (@uwf/workflow does not depend on zod itself). */
export interface SchemaIssue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  keys?: readonly string[];
  errors?: readonly (readonly SchemaIssue[])[];
  expected?: string;
  values?: readonly unknown[];
}

const TYPE_NAMES: Record<string, string> = { object: "a map", record: "a map", array: "a list" };
/** Fields that count something: a positive whole number (a fan-out's `maxConcurrent`, a join's `quorum`). */
const COUNT_FIELDS = new Set(["maxConcurrent", "quorum"]);

/** zod issues as located workflow errors: one per field, in words a workflow author uses. */
export function schemaIssuesToWorkflowIssues(issues: readonly SchemaIssue[], prefix: FieldPath = []): WorkflowIssue[] {
  return issues.flatMap((issue) => describeIssue(issue, [...prefix, ...issue.path.map(toSegment)]));
}

function describeIssue(issue: SchemaIssue, path: FieldPath): WorkflowIssue[] {
  const error = (at: FieldPath, message: string): WorkflowIssue => ({ severity: "error", path: at, message });
  const last = path.at(-1);
  const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
  if (typeof last === "string" && COUNT_FIELDS.has(last) && !missing) {
    if (issue.code === "too_small" || issue.code === "invalid_type") {
      return [error(path, "must be a positive whole number (1, 2, ...)")];
    }
  }
  switch (issue.code) {
    case "invalid_union":
      return describeUnion(issue.errors ?? [], path);
    case "unrecognized_keys":
      return (issue.keys ?? []).map((key) => ({ ...error([...path, key], `unknown field "${key}"`), pointAt: "key" }));
    case "invalid_type": {
      const received = /received (\w+)/.exec(issue.message)?.[1];
      if (received === "undefined") return [error(path, "missing required field")];
      return [error(path, `expected ${typeName(issue.expected)}, got ${received ?? "something else"}`)];
    }
    default:
      return [error(path, issue.message.replace(/^Invalid input: /, ""))];
  }
}

/**
 * A union (an agent spec, an edge list or map) fails once per branch. Report the branch the
 * author evidently meant: not one whose base type is wrong, nor one whose literal tag
 * (`builtin: shell`) says it is another branch; of the rest, the one with the fewest problems.
 */
function describeUnion(branches: readonly (readonly SchemaIssue[])[], path: FieldPath): WorkflowIssue[] {
  const tagMismatches = branches.flat().filter((issue) => issue.code === "invalid_value" && issue.path.length === 1);
  const tags = new Set(tagMismatches.map((issue) => issue.path[0]));
  const plausible = branches.filter(
    (issues) =>
      !issues.some(
        (issue) =>
          (issue.code === "invalid_type" && issue.path.length === 0) ||
          (issue.code === "invalid_value" && issue.path.length === 1) ||
          (issue.code === "unrecognized_keys" && issue.path.length === 0 && issue.keys?.some((key) => tags.has(key))),
      ),
  );
  const best = plausible.sort((left, right) => left.length - right.length)[0];
  if (best !== undefined) return schemaIssuesToWorkflowIssues(best, path);
  if (tagMismatches.length > 0) {
    const tag = mostCommon(tagMismatches.map((issue) => issue.path[0]));
    const allowed = tagMismatches.filter((issue) => issue.path[0] === tag).flatMap((issue) => issue.values ?? []);
    const values = allowed.map((value) => JSON.stringify(value)).join(", ");
    return [{ severity: "error", path: [...path, toSegment(tag)], message: `expected one of ${values}` }];
  }
  const expected = [...new Set(branches.flat().map((issue) => typeName(issue.expected)))];
  return [{ severity: "error", path, message: `expected ${expected.join(" or ")}` }];
}

function typeName(expected: string | undefined): string {
  if (expected === undefined) return "another value";
  return TYPE_NAMES[expected] ?? `a ${expected}`;
}

function toSegment(key: PropertyKey | undefined): string | number {
  return typeof key === "number" ? key : String(key);
}

function mostCommon<Value>(values: Value[]): Value | undefined {
  const counts = new Map<Value, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((left, right) => right[1] - left[1])[0]?.[0];
}
