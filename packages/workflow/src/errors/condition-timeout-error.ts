import { UwfError } from "@uwf/protocol";

/** A condition ran past its time limit: a runaway expression fails the step instead of hanging it. */
export class ConditionTimeoutError extends UwfError<"condition-timeout"> {
  static override readonly code = "condition-timeout" as const;
  static override readonly name = "ConditionTimeoutError";

  constructor(condition: string, timeoutMs: number) {
    super(`condition ${condition} did not finish within ${timeoutMs} ms (an infinite loop?)`, {
      data: { condition, timeoutMs },
    });
  }
}
