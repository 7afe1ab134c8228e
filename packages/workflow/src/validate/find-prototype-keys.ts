import { isObjectPrototypeName } from "@uwf/protocol";
import type { FieldPath } from "../issue/field-path.ts";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";

/**
 * Every key of a parsed workflow file, at any depth, that every JavaScript object already has
 * (`__proto__`, `constructor`, …): as a role, condition, field or input name it would be looked
 * up as the object's machinery or dropped as a prototype, so it is an error at its path. Checked
 * before anything reads the workflow by name. The value is already within the YAML nesting limit.
 */
export function findPrototypeKeys(value: unknown, path: FieldPath = []): WorkflowIssue[] {
  if (value === null || typeof value !== "object") return [];
  const issues: WorkflowIssue[] = [];
  if (Array.isArray(value)) {
    // Indexed, and only into containers: an enum of 100,000 values is walked without a path for each.
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (item !== null && typeof item === "object") issues.push(...findPrototypeKeys(item, [...path, index]));
    }
    return issues;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (isObjectPrototypeName(key)) {
      issues.push({
        severity: "error",
        path: [...path, key],
        message: `"${key}" is a name every JavaScript object already has, so it cannot name a role, condition, field or input`,
      });
    }
    if (inner !== null && typeof inner === "object") issues.push(...findPrototypeKeys(inner, [...path, key]));
  }
  return issues;
}
