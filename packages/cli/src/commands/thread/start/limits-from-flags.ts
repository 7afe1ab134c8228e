import type { BudgetLimits } from "@uwf/protocol";

/** The budget flags of `start`, `run`, `fork` and `resume`. */
export interface BudgetFlags {
  /** `--max-steps N`. */
  maxSteps?: number;
  /** `--max-tokens N`. */
  maxTokens?: number;
  /** `--max-cost USD`. */
  maxCost?: number;
}

/** The limits the flags set, or undefined when none is given. */
export function limitsFromFlags(flags: BudgetFlags): Partial<BudgetLimits> | undefined {
  const { maxSteps, maxTokens, maxCost } = flags;
  if (maxSteps === undefined && maxTokens === undefined && maxCost === undefined) return undefined;
  return { maxSteps, maxTokens, maxCostUsd: maxCost };
}
