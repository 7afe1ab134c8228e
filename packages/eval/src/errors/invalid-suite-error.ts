import { UwfError, type WorkflowProblem } from "@uwf/protocol";
import { formatWorkflowProblem } from "@uwf/workflow";

/** A suite file that cannot be used; every problem found is in `data.problems`, each at `FILE:LINE:COL` with its field. */
export class InvalidSuiteError extends UwfError<"invalid-suite"> {
  static override readonly code = "invalid-suite" as const;
  static override readonly name = "InvalidSuiteError";

  readonly problems: WorkflowProblem[];

  constructor(file: string, problems: WorkflowProblem[]) {
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    const lines = problems.map((problem) => `  ${formatWorkflowProblem(problem)}`);
    super([`suite ${file} is invalid (${count}):`, ...lines].join("\n"), { data: { file, problems } });
    this.problems = problems;
  }
}
