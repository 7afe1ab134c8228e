import { BUDGET_LIMIT_NAMES, type BudgetLimit, type BudgetSpent, spentOn } from "@uwf/protocol";

/** `3` steps, `12,345` tokens, `$0.0123`: a limit's kind of amount as people read it. */
export function formatAmount(limit: BudgetLimit, amount: number): string {
  return limit === "maxCostUsd" ? `$${amount.toFixed(4)}` : amount.toLocaleString("en-US");
}

/** `max_steps 2 reached (2 used)`, for messages about the limit a thread reached. */
export function describeReachedLimit(limit: BudgetLimit, value: number, spent: BudgetSpent): string {
  const used = limit === "maxCostUsd" ? "spent" : "used";
  return `${BUDGET_LIMIT_NAMES[limit].key} ${formatAmount(limit, value)} reached (${formatAmount(limit, spentOn(spent, limit))} ${used})`;
}
