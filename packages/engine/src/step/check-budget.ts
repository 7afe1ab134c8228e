import type { Store, ThreadUpdate } from "@uwf/cas";
import {
  BUDGET_LIMITS,
  type BudgetLimits,
  END,
  findExceededLimit,
  mergeBudgetLimits,
  newThreadBudget,
  type ThreadBudget,
  type ThreadRecord,
} from "@uwf/protocol";
import { spentWithBranches } from "../branches/parent-budget.ts";
import { BudgetExceededError } from "../errors/budget-exceeded-error.ts";
import { HeadConflictError } from "../errors/head-conflict-error.ts";
import type { HeldLease } from "../lease/with-thread-lease.ts";
import { applyThreadUpdate } from "../thread/apply-thread-update.ts";
import type { StepState } from "./load-step-state.ts";

/** The `reason` of a thread its budget suspended. */
const BUDGET_REASON = "budget";

export interface CheckBudgetOptions {
  store: Store;
  now(): Date;
  /** Limits `uwf resume --max-…` sets before its step, over the thread's own. */
  resumeLimits?: Partial<BudgetLimits>;
  /** Called as each phase of the step ends, with its name (`UWF_TRACE` in the CLI); for finding where time goes. */
  trace?(phase: string): void;
}

/** The step goes on (with the record as the check left it), or its thread was suspended for its budget instead. */
export type BudgetCheck = { kind: "go"; state: StepState } | { kind: "suspended"; record: ThreadRecord };

/**
 * The step's budget phase, before any agent runs: compares what the thread spent (its own steps, and
 * every token and dollar, failed runs included) with its limits, raised first by `uwf resume`'s flags. A
 * plain step (or the step of a failed thread tried again) that would start at or over a limit is not run: the thread becomes `suspended` with reason
 * `budget`, the limit it reached recorded, and no node is written. A resume of a suspended or ended thread is refused instead
 * (BudgetExceededError), leaving the thread as it was. Raised limits are recorded before the agent
 * starts, and a thread its budget suspended (or a worker set `failed`, its failure cleared) is active
 * again: a run that then fails keeps them.
 */
export async function checkBudget(
  state: StepState,
  lease: HeldLease,
  options: CheckBudgetOptions,
): Promise<BudgetCheck> {
  const { record, mode } = state;
  // A record an older uwf left active with next $END: its step ends it and runs no agent, so spends nothing.
  if (mode === "step" && record.next === END) return { kind: "go", state };
  const limits = mergeBudgetLimits(options.resumeLimits, record.budget);
  // A parent's branches count against its budget: their steps always, their usage until the join adds it.
  const spent = await spentWithBranches(options.store, record);
  const exceeded = findExceededLimit(limits, spent);
  if (exceeded !== null) {
    // A failed thread tried again is stepped as any other: at its limit, it is suspended for it instead.
    if (mode !== "step" && mode !== "resume-failed")
      throw new BudgetExceededError(record.id, exceeded, limits[exceeded] ?? 0, spent);
    const budget = { ...limits, exceeded };
    const suspension = { status: "suspended", reason: BUDGET_REASON, budget } as const;
    const suspended = await update(options, lease, record, {
      ...suspension,
      ...(mode === "resume-failed" ? { failure: null } : {}),
    });
    options.trace?.("budget reached: thread suspended");
    return { kind: "suspended", record: suspended };
  }
  const budget = newThreadBudget(limits);
  const raised = budget !== undefined && !sameBudget(budget, record.budget);
  const reactivated = mode === "lift-budget" || mode === "resume-failed";
  if (!raised && !reactivated) return { kind: "go", state };
  const lifted =
    mode === "lift-budget"
      ? ({ status: "active", reason: null } as const)
      : mode === "resume-failed"
        ? ({ status: "active", failure: null } as const)
        : {};
  const updated = await update(options, lease, record, { ...lifted, ...(budget === undefined ? {} : { budget }) });
  options.trace?.("budget checked, limits recorded");
  return { kind: "go", state: { ...state, record: updated } };
}

/** Changes the record where its head still is (under the step's lease it cannot have moved). */
async function update(
  options: CheckBudgetOptions,
  lease: HeldLease,
  record: ThreadRecord,
  changes: Omit<ThreadUpdate, "updatedAt">,
): Promise<ThreadRecord> {
  const change = { ...changes, updatedAt: options.now().toISOString() };
  lease.assertHeld();
  if (!(await options.store.refs.updateThread(record.id, record.head, change)))
    throw new HeadConflictError(record.id, record.head, record.head);
  return applyThreadUpdate(record, change);
}

function sameBudget(left: ThreadBudget, right: ThreadBudget | undefined): boolean {
  return (
    right !== undefined &&
    left.exceeded === right.exceeded &&
    BUDGET_LIMITS.every((limit) => left[limit] === right[limit])
  );
}
