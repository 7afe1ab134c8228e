import type { WorkflowProblem } from "@uwf/protocol";
import type { FieldPath } from "./field-path.ts";

/** A problem found in a workflow's content, before it is placed in a file. */
export interface WorkflowIssue {
  severity: "error" | "warning";
  path: FieldPath;
  message: string;
  /** Point at the field's key rather than its value: an unknown field is wrong by its name. */
  pointAt?: "key";
}

/** `FILE:LINE:COLUMN: path.to.field: what is wrong`, dropping the parts a problem does not have. */
export function formatWorkflowProblem(problem: WorkflowProblem): string {
  const place = problem.line === null ? problem.file : `${problem.file}:${problem.line}:${problem.column ?? 1}`;
  return problem.path === "" ? `${place}: ${problem.message}` : `${place}: ${problem.path}: ${problem.message}`;
}
