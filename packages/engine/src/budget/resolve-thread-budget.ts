import {
  type BudgetLimits,
  type Config,
  DEFAULT_MAX_STEPS,
  limitsFromInput,
  mergeBudgetLimits,
  newThreadBudget,
  type ThreadBudget,
  type WorkflowNode,
} from "@uwf/protocol";

export interface ResolveThreadBudgetOptions {
  /** `--max-steps`, `--max-tokens`, `--max-cost`. */
  flags: Partial<BudgetLimits> | undefined;
  workflow: WorkflowNode;
  config: Config;
}

/**
 * A new thread's limits, each from the first source that sets it: the flag, the workflow's `budget:`,
 * config's `workflowBudgets.<workflow>`, config's `budget`; the step limit DEFAULT_MAX_STEPS when none
 * sets one (0 in any of them: no step limit). Undefined when the thread has no limit at all.
 */
export function resolveThreadBudget(options: ResolveThreadBudgetOptions): ThreadBudget | undefined {
  const { flags, workflow, config } = options;
  return newThreadBudget(
    mergeBudgetLimits(
      flags,
      limitsFromInput(workflow.budget),
      limitsFromInput(config.workflowBudgets?.[workflow.name]),
      limitsFromInput(config.budget),
      { maxSteps: DEFAULT_MAX_STEPS },
    ),
  );
}
