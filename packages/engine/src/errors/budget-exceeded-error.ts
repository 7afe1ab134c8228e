import { type BudgetLimit, type BudgetSpent, spentOn, UwfError } from "@uwf/protocol";
import { describeReachedLimit } from "../budget/describe-reached-limit.ts";

/**
 * A resume whose step would start at or over one of the thread's limits: nothing ran and the thread
 * is as it was (`data.limit` names the limit to raise). A plain step is not refused this way: it
 * suspends the thread for its budget.
 */
export class BudgetExceededError extends UwfError<"budget-exceeded"> {
  static override readonly code = "budget-exceeded" as const;
  static override readonly name = "BudgetExceededError";

  constructor(threadId: string, limit: BudgetLimit, value: number, spent: BudgetSpent) {
    super(`thread ${threadId} is at its budget: ${describeReachedLimit(limit, value, spent)}, so no step was run`, {
      data: { thread: threadId, limit, value, spent: spentOn(spent, limit) },
    });
  }
}
