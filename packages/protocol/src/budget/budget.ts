import { z } from "zod";
import { BUDGET_LIMITS } from "./budget-limits.ts";

/**
 * A thread's limits as a workflow's `budget:` and config.yaml's `budget:` and `workflowBudgets:` write
 * them: the names the flags (`--max-steps`, `--max-tokens`, `--max-cost`) stand for. Each is optional.
 */
export const budgetInputSchema = z
  .object({
    /** 0: no step limit (not even the default one, DEFAULT_MAX_STEPS). */
    max_steps: z.number().int("expected a whole number").nonnegative("expected 0 (no limit) or more").optional(),
    max_tokens: z.number().int("expected a whole number").positive("expected a number above 0").optional(),
    max_cost_usd: z.number().positive("expected a number of US dollars above 0").optional(),
  })
  .strict();
export type BudgetInput = z.infer<typeof budgetInputSchema>;

/** The limits a thread may carry, by their names in records and results. */
export const budgetLimitSchema = z.enum(BUDGET_LIMITS);
export type BudgetLimit = z.infer<typeof budgetLimitSchema>;

/** Each limit, or null when the thread has none of that kind. */
export const budgetLimitsSchema = z
  .object({
    maxSteps: z.number().int().positive().nullable(),
    maxTokens: z.number().int().positive().nullable(),
    maxCostUsd: z.number().positive().nullable(),
  })
  .strict();
export type BudgetLimits = z.infer<typeof budgetLimitsSchema>;

/** A thread record's budget: its limits, and the one it reached while it is suspended for it. */
export const threadBudgetSchema = budgetLimitsSchema
  .extend({
    /** The limit that suspended the thread (reason `budget`) until `uwf resume` raises it; null otherwise. */
    exceeded: budgetLimitSchema.nullable(),
  })
  .strict();
export type ThreadBudget = z.infer<typeof threadBudgetSchema>;

/**
 * What a thread has spent against its limits: its own steps (a fork's from its fork point), and every
 * token and dollar its agents' runs used, failed runs included.
 */
export const budgetSpentSchema = z
  .object({
    steps: z.number().int().nonnegative(),
    tokens: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative(),
  })
  .strict();
export type BudgetSpent = z.infer<typeof budgetSpentSchema>;

/** A thread's budget as `show`, `list`, `log`, `tree` and the step commands report it: the record's, with what was spent. */
export const budgetReportSchema = threadBudgetSchema.extend({ spent: budgetSpentSchema }).strict();
export type BudgetReport = z.infer<typeof budgetReportSchema>;
