import {
  BUDGET_LIMIT_NAMES,
  BUDGET_LIMITS,
  type BudgetLimit,
  type BudgetReport,
  type BudgetSpent,
  spentOn,
} from "@uwf/protocol";

/** `3` steps, `12,345` tokens, `$0.0123`: a limit's kind of amount as people read it. */
export function formatAmount(limit: BudgetLimit, amount: number): string {
  return limit === "maxCostUsd" ? `$${amount.toFixed(4)}` : amount.toLocaleString("en-US");
}

/** What was spent against each limit the thread has: `2/5 steps · 1,200/10,000 tokens · $0.0123/$0.5000`. */
export function formatBudget(report: BudgetReport): string {
  const unit: Record<BudgetLimit, string> = { maxSteps: " steps", maxTokens: " tokens", maxCostUsd: "" };
  const parts = BUDGET_LIMITS.flatMap((limit) => {
    const value = report[limit];
    if (value === null) return [];
    return [`${formatAmount(limit, spentOn(report.spent, limit))}/${formatAmount(limit, value)}${unit[limit]}`];
  });
  const reached = report.exceeded === null ? "" : ` (${BUDGET_LIMIT_NAMES[report.exceeded].key} reached)`;
  return parts.join(" · ") + reached;
}

/** `max_steps 2 reached (2 used)`, for messages about the limit a thread reached. */
export function describeReachedLimit(limit: BudgetLimit, value: number, spent: BudgetSpent): string {
  const used = limit === "maxCostUsd" ? "spent" : "used";
  return `${BUDGET_LIMIT_NAMES[limit].key} ${formatAmount(limit, value)} reached (${formatAmount(limit, spentOn(spent, limit))} ${used})`;
}

/** How to go on past it: `uwf resume T --max-steps N`. */
export function raiseLimitHint(thread: string, limit: BudgetLimit): string {
  const placeholder = limit === "maxCostUsd" ? "USD" : "N";
  return `uwf resume ${thread} ${BUDGET_LIMIT_NAMES[limit].flag} ${placeholder}`;
}
