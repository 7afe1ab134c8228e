import type { WorkflowNode } from "@uwf/protocol";
import { compileCondition, describeJsonataError } from "../moderator/compile-condition.ts";
import type { WorkflowIssue } from "./workflow-issue.ts";

/** Every condition must compile as JSONata, with the same compiler the moderator uses. */
export function checkConditions(workflow: WorkflowNode): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  for (const [name, condition] of Object.entries(workflow.conditions)) {
    if (condition.expression.trim() === "") continue; // the schema already reports an empty expression
    try {
      compileCondition(name, condition.expression);
    } catch (error) {
      const { message, position } = describeJsonataError(error);
      const where = position === null ? "" : ` (at character ${position})`;
      issues.push({
        severity: "error",
        path: ["conditions", name, "expression"],
        message: `JSONata does not compile: ${message}${where}`,
      });
    }
  }
  return issues;
}
