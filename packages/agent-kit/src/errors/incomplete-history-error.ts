import { UwfError } from "@uwf/protocol";

/** The prompt must show a step in full, but its caller gave only the step's role: a bug of the caller. */
export class IncompleteHistoryError extends UwfError<"incomplete-history"> {
  static override readonly code = "incomplete-history" as const;
  static override readonly name = "IncompleteHistoryError";

  constructor(stepNumber: number, roleName: string) {
    super(`the prompt shows step ${stepNumber} in full, but only its role was given`, {
      data: { step: stepNumber, role: roleName },
    });
  }
}
