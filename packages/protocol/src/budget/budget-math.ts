import type { ThreadRecord } from "../threads/thread-record.ts";
import type { BudgetInput, BudgetLimit, BudgetLimits, BudgetReport, BudgetSpent, ThreadBudget } from "./budget.ts";

/** What each limit is called where users write it: its key in `budget:` and its flag. */
export const BUDGET_LIMIT_NAMES: Readonly<Record<BudgetLimit, { key: keyof BudgetInput; flag: string }>> = {
  maxSteps: { key: "max_steps", flag: "--max-steps" },
  maxTokens: { key: "max_tokens", flag: "--max-tokens" },
  maxCostUsd: { key: "max_cost_usd", flag: "--max-cost" },
};

/** A `budget:` map as written, by the limits' record names. */
export function limitsFromInput(input: BudgetInput | undefined): Partial<BudgetLimits> {
  return { maxSteps: input?.max_steps, maxTokens: input?.max_tokens, maxCostUsd: input?.max_cost_usd };
}

/**
 * The step limit of a thread whose flags, workflow and config set none (DESIGN §4): a loop whose
 * reviewer never approves stops here, suspended for its budget, instead of running on.
 */
export const DEFAULT_MAX_STEPS = 100;

/**
 * Each limit from the first source that sets it (null and absent both leave it to the next); null when
 * none does. A step limit of 0 sets "none": it stops the search and gives null.
 */
export function mergeBudgetLimits(...sources: ReadonlyArray<Partial<BudgetLimits> | undefined>): BudgetLimits {
  const pick = <Limit extends BudgetLimit>(limit: Limit): BudgetLimits[Limit] | null => {
    for (const source of sources) {
      const value = source?.[limit];
      if (value === 0 && limit === "maxSteps") return null;
      if (value !== undefined && value !== null) return value;
    }
    return null;
  };
  return { maxSteps: pick("maxSteps"), maxTokens: pick("maxTokens"), maxCostUsd: pick("maxCostUsd") };
}

/** The budget a new thread records, or undefined when it has no limit at all (the record then has none). */
export function newThreadBudget(limits: BudgetLimits): ThreadBudget | undefined {
  const { maxSteps, maxTokens, maxCostUsd } = limits;
  if (maxSteps === null && maxTokens === null && maxCostUsd === null) return undefined;
  return { maxSteps, maxTokens, maxCostUsd, exceeded: null };
}

/**
 * What a thread has spent against its limits. Its steps are its own: a fork's chain shares the steps up to
 * its fork point with its parent (`forkedFrom.step`), and those are the parent's. A fork's usage starts at
 * zero, so the record's usage, failed runs included, is its own already. Tokens are every kind counted:
 * input, output, cache read and cache write.
 */
export function budgetSpent(record: Pick<ThreadRecord, "stepCount" | "forkedFrom" | "usage">): BudgetSpent {
  const { usage } = record;
  return {
    steps: Math.max(0, record.stepCount - (record.forkedFrom?.step ?? 0)),
    tokens: usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
    costUsd: usage.costUsd,
  };
}

/** The first limit the spend has reached (at or over it), in the order steps, tokens, cost; null when none. */
export function findExceededLimit(limits: BudgetLimits, spent: BudgetSpent): BudgetLimit | null {
  if (limits.maxSteps !== null && spent.steps >= limits.maxSteps) return "maxSteps";
  if (limits.maxTokens !== null && spent.tokens >= limits.maxTokens) return "maxTokens";
  if (limits.maxCostUsd !== null && spent.costUsd >= limits.maxCostUsd) return "maxCostUsd";
  return null;
}

/** The value of a limit's spend: steps, tokens or dollars. */
export function spentOn(spent: BudgetSpent, limit: BudgetLimit): number {
  return limit === "maxSteps" ? spent.steps : limit === "maxTokens" ? spent.tokens : spent.costUsd;
}

/** The thread's budget with what it spent, as results report it; undefined for a thread without one. */
export function budgetReport(record: ThreadRecord): BudgetReport | undefined {
  return record.budget === undefined ? undefined : { ...record.budget, spent: budgetSpent(record) };
}
