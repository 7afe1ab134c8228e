import type { WorkflowNode } from "@uwf/protocol";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";
import { type CompiledCondition, compileCondition, describeJsonataError } from "../moderator/compile-condition.ts";
import { findUnquotedStatus } from "./find-unquoted-status.ts";

/**
 * Every condition must compile as JSONata, with the same compiler the moderator uses. One that
 * reads `$status` unquoted (a JSONata variable, never set) gets a warning showing the quoted form.
 */
export function checkConditions(workflow: WorkflowNode): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  for (const [name, condition] of Object.entries(workflow.conditions)) {
    if (condition.expression.trim() === "") continue; // the schema already reports an empty expression
    const path = ["conditions", name, "expression"];
    let compiled: CompiledCondition;
    try {
      compiled = compileCondition(name, condition.expression);
    } catch (error) {
      const { message, position } = describeJsonataError(error);
      const where = position === null ? "" : ` (at character ${position})`;
      issues.push({ severity: "error", path, message: `JSONata does not compile: ${message}${where}` });
      continue;
    }
    // The fast path's subset has no `$status`, and an expression in it never loads JSONata here.
    if (compiled.simple !== undefined || !condition.expression.includes("$status")) continue;
    const unquoted = findUnquotedStatus(condition.expression, compiled.jsonata().expression.ast());
    if (unquoted !== null) {
      issues.push({
        severity: "warning",
        path,
        message:
          "$status without backquotes is a JSONata variable, which nothing sets, so it is undefined here; " +
          `to read the reply's $status field, quote it: ${unquoted.fix}`,
      });
    }
  }
  return issues;
}
