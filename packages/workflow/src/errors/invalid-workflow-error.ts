import { UwfError, type WorkflowProblem } from "@uwf/protocol";
import { formatWorkflowProblem } from "../issue/workflow-issue.ts";

/** A workflow file that cannot be used; every problem found is in `data.problems`, warnings in `data.warnings`. */
export class InvalidWorkflowError extends UwfError<"invalid-workflow"> {
  static override readonly code = "invalid-workflow" as const;
  static override readonly name = "InvalidWorkflowError";

  readonly problems: WorkflowProblem[];
  readonly warnings: WorkflowProblem[];

  constructor(file: string, problems: WorkflowProblem[], warnings: WorkflowProblem[] = []) {
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    const lines = problems.map((problem) => `  ${formatWorkflowProblem(problem)}`);
    super([`workflow ${file} is invalid (${count}):`, ...lines].join("\n"), {
      data: { file, problems, warnings },
    });
    this.problems = problems;
    this.warnings = warnings;
  }
}
