/**
 * The limits a thread's budget can set, by their record names. Kept apart from the zod schemas in
 * budget.ts: the ref store checks records on every read without loading zod, and so does a step.
 */
export const BUDGET_LIMITS = ["maxSteps", "maxTokens", "maxCostUsd"] as const;
