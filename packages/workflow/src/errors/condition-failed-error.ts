import { UwfError } from "@uwf/protocol";

/** A condition threw while being evaluated (a type error, a runaway recursion, a huge range). */
export class ConditionFailedError extends UwfError {
  static readonly code = "condition-failed" as const;

  constructor(condition: string, reason: string, jsonataCode: string | null) {
    super(ConditionFailedError.code, `condition ${condition} failed: ${reason}`, {
      data: { condition, reason, jsonataCode },
    });
    this.name = "ConditionFailedError";
  }
}
