import { type BudgetLimit, type BudgetSpent, spentOn, UwfError } from "@uwf/protocol";
import { describeReachedLimit, raiseLimitHint } from "./describe-reached-limit.ts";

/**
 * `uwf resume` whose step would start at or over one of the thread's limits (exit 20): nothing ran and
 * the thread is as it was. A plain step is not refused this way: it suspends the thread for its budget.
 */
export class BudgetExceededError extends UwfError {
  static readonly code = "budget-exceeded" as const;

  constructor(threadId: string, limit: BudgetLimit, value: number, spent: BudgetSpent) {
    super(
      BudgetExceededError.code,
      `thread ${threadId} is at its budget: ${describeReachedLimit(limit, value, spent)}, so no step was run — raise the limit above that: \`${raiseLimitHint(threadId, limit)}\``,
      { data: { thread: threadId, limit, value, spent: spentOn(spent, limit) } },
    );
    this.name = "BudgetExceededError";
  }
}
