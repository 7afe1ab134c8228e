import { UwfError } from "@uwf/protocol";

/** The prompt must show a step in full, but its caller gave only the step's role: a bug of the caller. */
export class IncompleteHistoryError extends UwfError {
  static readonly code = "incomplete-history" as const;

  constructor(stepNumber: number, roleName: string) {
    super(IncompleteHistoryError.code, `the prompt shows step ${stepNumber} in full, but only its role was given`, {
      data: { step: stepNumber, role: roleName },
    });
    this.name = "IncompleteHistoryError";
  }
}
