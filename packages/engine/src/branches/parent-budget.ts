import type { Store } from "@uwf/cas";
import {
  type BudgetLimit,
  type BudgetLimits,
  type BudgetSpent,
  budgetSpent,
  findExceededLimit,
  mergeBudgetLimits,
  type ThreadRecord,
  type Usage,
} from "@uwf/protocol";
import { HeadConflictError } from "../errors/head-conflict-error.ts";
import { ownBranchSteps } from "./branch-steps.ts";
import { countChainSteps, countStepsWithBranches } from "./count-thread.ts";

/**
 * What a parent has spent with its branches (DESIGN §4: every branch's spend counts against the parent's
 * budget): its own usage; the steps countThread counts against `max_steps` (the ones it took, and those
 * its branches took, nested fan-outs included); and the usage
 * of the branches of the fan-out it waits on (a join adds its branches' usage to the parent's own, so a
 * joined fan-out's is in the parent's usage already).
 */
export async function spentWithBranches(store: Pick<Store, "refs">, parent: ThreadRecord): Promise<BudgetSpent> {
  const spent = { ...budgetSpent(parent) };
  if (parent.stepCount === 0) return spent;
  // One pass over the branch records: the steps of every fan-out's branches (countThread's rule, nested
  // fan-outs too), and the usage of the fan-out the parent waits on.
  spent.steps = countChainSteps(parent).taken;
  const seen = new Set([parent.id]);
  for (const link of await store.refs.listBranches(parent.id)) {
    if (seen.has(link.thread)) continue;
    seen.add(link.thread);
    const branch = await store.refs.getThread(link.thread);
    if (branch === null) continue;
    spent.steps += await countStepsWithBranches(store, branch, seen);
    // The step at the head fanned out and is not joined yet: its branches' usage is not the parent's yet.
    if (link.step !== parent.stepCount) continue;
    const own = budgetSpent({ ...branch, stepCount: ownBranchSteps(branch), forkedFrom: null });
    spent.tokens += own.tokens;
    spent.costUsd += own.costUsd;
  }
  return spent;
}

/**
 * The spend of a parent with its branches, kept up to date by one call stepping its branches: read once,
 * then each branch step this call ran added to it, so a check before each branch step reads no record
 * (reading every branch before every step made a 100-branch fan-out's steps quadratic in reads).
 * Steps of the parent's branches by other processes meanwhile are seen at the next read.
 */
export class ParentSpend {
  private readonly limits: BudgetLimits | null;
  private readonly spent: BudgetSpent;

  private constructor(limits: BudgetLimits | null, spent: BudgetSpent) {
    this.limits = limits;
    this.spent = spent;
  }

  static async read(store: Store, parent: ThreadRecord): Promise<ParentSpend> {
    if (parent.budget === undefined) return new ParentSpend(null, { steps: 0, tokens: 0, costUsd: 0 });
    return new ParentSpend(mergeBudgetLimits(parent.budget), await spentWithBranches(store, parent));
  }

  /** A branch step that ran: one step, and its agent's usage. */
  add(usage: Usage | null): void {
    this.spent.steps += 1;
    if (usage === null) return;
    this.spent.tokens += usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
    this.spent.costUsd += usage.costUsd;
  }

  /** The limit reached with `inFlight` more branch steps counted as spent (each as one step), or null. */
  reached(inFlight: number): BudgetLimit | null {
    if (this.limits === null) return null;
    return findExceededLimit(this.limits, { ...this.spent, steps: this.spent.steps + inFlight });
  }
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
