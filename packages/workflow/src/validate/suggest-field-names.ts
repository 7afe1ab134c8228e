import {
  BUDGET_LIMIT_NAMES,
  conditionSchema,
  didYouMean,
  roleSchema,
  statusTargetInputSchema,
  transitionInputSchema,
} from "@uwf/protocol";
import type { FieldPath } from "../issue/field-path.ts";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";

const UNKNOWN_FIELD = /^unknown (field|key) "([^"]*)"/;

/**
 * Adds `(did you mean "goal"?)` to each unknown-field error whose name is a slip away from a field
 * that place takes: the workflow's own keys, its budget's, a role's, a condition's, an edge's (in either form).
 */
export function suggestFieldNames(issues: WorkflowIssue[], fileKeys: readonly string[]): WorkflowIssue[] {
  return issues.map((issue) => {
    const [, word, unknown] = UNKNOWN_FIELD.exec(issue.message) ?? [];
    if (unknown === undefined || issue.message.includes("did you mean")) return issue;
    const known = knownFieldsAt(issue.path.slice(0, -1), fileKeys);
    const suggestion = known.length === 0 ? "" : didYouMean(unknown, known);
    if (suggestion === "") return issue;
    // The suggestion says more than the note on extension fields (`x-…`) that may follow.
    return { ...issue, message: `unknown ${word} "${unknown}"${suggestion}` };
  });
}

/** The fields the object at `path` (the unknown field's parent) may have. */
function knownFieldsAt(path: FieldPath, fileKeys: readonly string[]): readonly string[] {
  if (path.length === 0) return fileKeys;
  if (path.length === 1 && path[0] === "budget") return Object.values(BUDGET_LIMIT_NAMES).map(({ key }) => key);
  const [section, , third] = path;
  if (section === "roles" && path.length === 2) return Object.keys(roleSchema.shape);
  if (section === "conditions" && path.length === 2) return Object.keys(conditionSchema.shape);
  if (section === "graph" && path.length === 3) {
    return Object.keys(typeof third === "number" ? transitionInputSchema.shape : statusTargetInputSchema.shape);
  }
  return [];
}
