import { UwfError } from "@uwf/protocol";

/** Start inputs that the workflow's `inputs:` schema refuses: a usage error, as the values came from the command line. */
export class InvalidInputsError extends UwfError {
  static readonly code = "invalid-inputs" as const;

  constructor(workflow: string, problem: string) {
    super(InvalidInputsError.code, `start inputs do not fit workflow ${workflow}: ${problem}`, {
      data: { workflow, problem },
    });
    this.name = "InvalidInputsError";
  }
}
