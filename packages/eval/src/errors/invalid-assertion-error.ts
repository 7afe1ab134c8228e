import { UwfError } from "@uwf/protocol";

export interface InvalidAssertionDetails {
  /** The assertion's name, or its text when it has none yet. */
  assertion: string;
  problem: string;
  /** The field of a suite item or flow mapping at fault (`weight`, `judge.role`); null for the whole assertion. */
  field?: string | null;
  /** The character position in a JSONata expression where it fails to compile; null otherwise. */
  position?: number | null;
}

/** An assertion (`--assert`, a suite's `assertions:` item) that cannot be used: nothing is scored. */
export class InvalidAssertionError extends UwfError<"invalid-assertion"> {
  static override readonly code = "invalid-assertion" as const;
  static override readonly name = "InvalidAssertionError";

  constructor(details: InvalidAssertionDetails) {
    const field = details.field ?? null;
    const position = details.position ?? null;
    super(`assertion ${JSON.stringify(details.assertion)}${field === null ? "" : ` (${field})`}: ${details.problem}`, {
      data: { assertion: details.assertion, problem: details.problem, field, position },
    });
  }
}
