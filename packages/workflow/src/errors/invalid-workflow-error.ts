import { UwfError, type WorkflowProblem } from "@uwf/protocol";
import { formatWorkflowProblem } from "../issue/workflow-issue.ts";

/** A workflow file that cannot be used; every problem found is in `data.problems`, warnings in `data.warnings`. */
export class InvalidWorkflowError extends UwfError {
  static readonly code = "invalid-workflow" as const;

  readonly problems: WorkflowProblem[];
  readonly warnings: WorkflowProblem[];

  constructor(file: string, problems: WorkflowProblem[], warnings: WorkflowProblem[] = []) {
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    const lines = problems.map((problem) => `  ${formatWorkflowProblem(problem)}`);
    super(InvalidWorkflowError.code, [`workflow ${file} is invalid (${count}):`, ...lines].join("\n"), {
      data: { file, problems, warnings },
    });
    this.name = "InvalidWorkflowError";
    this.problems = problems;
    this.warnings = warnings;
  }
}
