import { NAME_PATTERN, RESERVED_NAMES, type WorkflowNode } from "@uwf/protocol";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";

const NAME_RULE = 'names are letters, digits, "_" and "-", starting with a letter or "_"';

/** Role and condition names appear in templates, `$last(...)` and Mermaid, so they must be plain. */
export function checkNames(workflow: WorkflowNode): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  for (const name of Object.keys(workflow.roles)) {
    if (RESERVED_NAMES.includes(name)) {
      issues.push({ severity: "error", path: ["roles", name], message: `${name} is reserved and cannot name a role` });
    } else if (!NAME_PATTERN.test(name)) {
      issues.push({
        severity: "error",
        path: ["roles", name],
        message: `"${name}" is not a valid role name: ${NAME_RULE}`,
      });
    }
  }
  for (const name of Object.keys(workflow.conditions)) {
    if (!NAME_PATTERN.test(name)) {
      issues.push({
        severity: "error",
        path: ["conditions", name],
        message: `"${name}" is not a valid condition name: ${NAME_RULE}`,
      });
    }
  }
  return issues;
}
