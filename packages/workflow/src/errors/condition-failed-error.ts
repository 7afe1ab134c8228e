import { UwfError } from "@uwf/protocol";

/** A condition threw while being evaluated (a type error, a runaway recursion, a huge range). */
export class ConditionFailedError extends UwfError<"condition-failed"> {
  static override readonly code = "condition-failed" as const;
  static override readonly name = "ConditionFailedError";

  constructor(condition: string, reason: string, jsonataCode: string | null) {
    super(`condition ${condition} failed: ${reason}`, {
      data: { condition, reason, jsonataCode },
    });
  }
}
