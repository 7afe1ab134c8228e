import { formatAmount } from "@uwf/engine";
import { BUDGET_LIMIT_NAMES, BUDGET_LIMITS, type BudgetLimit, type BudgetReport, spentOn } from "@uwf/protocol";

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

/** How to go on past it: `uwf resume T --max-steps N`. */
export function raiseLimitHint(thread: string, limit: BudgetLimit): string {
  const placeholder = limit === "maxCostUsd" ? "USD" : "N";
  return `uwf resume ${thread} ${BUDGET_LIMIT_NAMES[limit].flag} ${placeholder}`;
}
