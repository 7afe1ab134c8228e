import { UwfError } from "@uwf/protocol";

/** Start inputs that the workflow's `inputs:` schema refuses: a usage error, as the values came from the command line. */
export class InvalidInputsError extends UwfError<"invalid-inputs"> {
  static override readonly code = "invalid-inputs" as const;
  static override readonly name = "InvalidInputsError";

  constructor(workflow: string, problem: string) {
    super(`start inputs do not fit workflow ${workflow}: ${problem}`, {
      data: { workflow, problem },
    });
  }
}
