import type { Store, ThreadUpdate } from "@uwf/cas";
import { type BudgetLimits, findExceededLimit, mergeBudgetLimits, type ThreadRecord } from "@uwf/protocol";
import { BranchFailedError } from "../errors/branch-failed-error.ts";
import { BudgetExceededError } from "../errors/budget-exceeded-error.ts";
import { HeadConflictError } from "../errors/head-conflict-error.ts";
import { applyThreadUpdate } from "../thread/apply-thread-update.ts";
import { spentWithBranches } from "./parent-budget.ts";
import { readFanOut } from "./read-fan-out.ts";
import { type SettleParentOptions, settleParentAfterBranch } from "./settle-parent.ts";
import { type StepWaitingParentOptions, stepWaitingParent, type WaitingParentStep } from "./step-waiting-parent.ts";

export interface StepAsParentOptions extends StepWaitingParentOptions {
  threadId: string;
  /** The step's resume: an answer steps the thread itself; raised limits may lift its branches' budget suspension. */
  resume?: { answer?: string; limits?: Partial<BudgetLimits> };
  now(): Date;
}

/** A parent's step: it stepped its branches (stepWaitingParent), or its join is due before any branch ran. */
export type ParentStep = ({ kind: "branches" } & WaitingParentStep) | { kind: "join" };

/**
 * The step of a thread that waits for its branches (or whose join failed, or whose budget its branches
 * reached, and is stepped or resumed again): null for any other thread, which steps as usual.
 */
export async function stepAsParent(options: StepAsParentOptions): Promise<ParentStep | null> {
  const { store } = options;
  let record = await store.refs.getThread(options.threadId);
  if (record === null || options.resume?.answer !== undefined) return null;
  record = await reopenParent(store, record, options);
  if (record.status !== "waiting") return null;
  const result = await stepWaitingParent(record, options);
  // The join was due before any branch ran: this step is the join (a resume's raised limits are recorded already).
  if (result.branches.length === 0 && result.record.status === "active") return { kind: "join" };
  return { kind: "branches", ...result };
}

/**
 * A parent set `failed` because its join could not be met, stepped again (after a branch was retried or
 * answered), or one its branches' budget suspended, resumed with raised limits: it waits for its
 * branches again, and the policy is looked at afresh.
 */
async function reopenParent(store: Store, record: ThreadRecord, options: StepAsParentOptions): Promise<ThreadRecord> {
  const reopen = async (update: ThreadUpdate): Promise<ThreadRecord> => {
    const change = { ...update, status: "waiting", updatedAt: options.now().toISOString() } as const;
    if (!(await store.refs.updateThread(record.id, record.head, change))) {
      throw new HeadConflictError(record.id, record.head, record.head);
    }
    return applyThreadUpdate(record, change);
  };
  if (record.status === "failed" && record.failure?.code === BranchFailedError.code) {
    return reopen({ failure: null });
  }
  const exceeded = record.budget?.exceeded ?? null;
  if (record.status !== "suspended" || exceeded === null || options.resume === undefined) return record;
  if ((await readFanOut(store.objects, record.head)) === null) return record;
  const limits = mergeBudgetLimits(options.resume.limits, record.budget);
  const spent = await spentWithBranches(store, record);
  const still = findExceededLimit(limits, spent);
  if (still !== null) throw new BudgetExceededError(record.id, still, limits[still] ?? 0, spent);
  return reopen({ reason: null, budget: { ...limits, exceeded: null } });
}

/**
 * After a branch's step (in its `finally`): a branch that finished or stopped to wait settles its parent —
 * its join may be due, or no longer possible. `after` is the branch as its step left it; read again when
 * the step failed (it may have set it `failed`). Settling never hides the step's own outcome: when it
 * fails, whoever touches the parent next settles it (stepWaitingParent, a worker, `uwf tick`).
 */
export async function settleParentAfterStep(
  parent: string,
  after: ThreadRecord | null,
  options: SettleParentOptions & { threadId: string },
): Promise<void> {
  const branch = after ?? (await options.store.refs.getThread(options.threadId).catch(() => null));
  if (branch !== null && (branch.status === "active" || branch.status === "waiting")) return;
  await settleParentAfterBranch(parent, options).catch(() => null);
}
