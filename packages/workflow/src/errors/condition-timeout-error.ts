import { UwfError } from "@uwf/protocol";

/** A condition ran past its time limit: a runaway expression fails the step instead of hanging it. */
export class ConditionTimeoutError extends UwfError {
  static readonly code = "condition-timeout" as const;

  constructor(condition: string, timeoutMs: number) {
    super(
      ConditionTimeoutError.code,
      `condition ${condition} did not finish within ${timeoutMs} ms (an infinite loop?)`,
      {
        data: { condition, timeoutMs },
      },
    );
    this.name = "ConditionTimeoutError";
  }
}
