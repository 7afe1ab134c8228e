import type { Store } from "@uwf/cas";
import {
  type BudgetLimit,
  type BudgetSpent,
  budgetSpent,
  findExceededLimit,
  mergeBudgetLimits,
  type ThreadRecord,
} from "@uwf/protocol";
import { HeadConflictError } from "../errors/head-conflict-error.ts";
import { ownBranchSteps } from "./branch-steps.ts";

/**
 * What a waiting parent has spent with its branches (DESIGN §4: every branch's spend counts against the
 * parent's budget): its own steps and usage, and each linked branch's own steps and usage.
 */
export async function spentWithBranches(store: Store, parent: ThreadRecord): Promise<BudgetSpent> {
  const spent = { ...budgetSpent(parent) };
  for (const link of await store.refs.listBranches(parent.id, parent.stepCount)) {
    const branch = await store.refs.getThread(link.thread);
    if (branch === null) continue;
    const own = budgetSpent({ ...branch, stepCount: ownBranchSteps(branch), forkedFrom: null });
    spent.steps += own.steps;
    spent.tokens += own.tokens;
    spent.costUsd += own.costUsd;
  }
  return spent;
}

/**
 * Whether a branch step may not start while `inFlight` other branch steps of the parent are running: each
 * of those counts as one step already spent, so parallel lanes never start more steps than the budget has
 * left. Nothing is changed: the parent is suspended once no step is in flight (suspendParentAtBudget).
 */
export async function budgetReachedWith(store: Store, parent: ThreadRecord, inFlight: number): Promise<boolean> {
  if (parent.budget === undefined) return false;
  const spent = await spentWithBranches(store, parent);
  return findExceededLimit(mergeBudgetLimits(parent.budget), { ...spent, steps: spent.steps + inFlight }) !== null;
}

/**
 * Before a branch step: the limit of the parent's budget its spend with its branches has reached, with the
 * parent suspended for it (reason `budget`, as a thread's own budget suspends it); null when none is
 * reached, and the parent left as it is.
 */
export async function suspendParentAtBudget(
  store: Store,
  parent: ThreadRecord,
  now: Date,
): Promise<{ limit: BudgetLimit; record: ThreadRecord } | null> {
  if (parent.budget === undefined) return null;
  const limits = mergeBudgetLimits(parent.budget);
  const limit = findExceededLimit(limits, await spentWithBranches(store, parent));
  if (limit === null) return null;
  const update = {
    status: "suspended",
    reason: "budget",
    budget: { ...limits, exceeded: limit },
    updatedAt: now.toISOString(),
  } as const;
  if (!(await store.refs.updateThread(parent.id, parent.head, update))) {
    throw new HeadConflictError(parent.id, parent.head, parent.head);
  }
  return { limit, record: { ...parent, ...update } };
}
