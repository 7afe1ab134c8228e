import { isObjectPrototypeName } from "@uwf/protocol";
import type { FieldPath } from "./field-path.ts";
import type { WorkflowIssue } from "./workflow-issue.ts";

/**
 * Every key of a parsed workflow file, at any depth, that every JavaScript object already has
 * (`__proto__`, `constructor`, …): as a role, condition, field or input name it would be looked
 * up as the object's machinery or dropped as a prototype, so it is an error at its path. Checked
 * before anything reads the workflow by name. The value is already within the YAML nesting limit.
 */
export function findPrototypeKeys(value: unknown, path: FieldPath = []): WorkflowIssue[] {
  if (value === null || typeof value !== "object") return [];
  const issues: WorkflowIssue[] = [];
  for (const [key, inner] of Object.entries(value)) {
    const at: FieldPath = [...path, Array.isArray(value) ? Number(key) : key];
    if (!Array.isArray(value) && isObjectPrototypeName(key)) {
      issues.push({
        severity: "error",
        path: at,
        message: `"${key}" is a name every JavaScript object already has, so it cannot name a role, condition, field or input`,
      });
    }
    issues.push(...findPrototypeKeys(inner, at));
  }
  return issues;
}
