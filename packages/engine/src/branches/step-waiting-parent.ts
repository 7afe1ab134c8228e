import type { StepSummary, ThreadRecord } from "@uwf/protocol";
import { BranchFailedError } from "../errors/branch-failed-error.ts";
import { ThreadBusyError } from "../errors/thread-busy-error.ts";
import type { FanOutState } from "./ensure-branches.ts";
import type { BranchStanding } from "./join-policy.ts";
import { ParentSpend, suspendParentAtBudget } from "./parent-budget.ts";
import { type SettleParentOptions, settleParent } from "./settle-parent.ts";

/** How many branches one step of a waiting parent steps at once when neither `--parallel` nor the fan-out's `maxConcurrent` says. */
export const DEFAULT_BRANCH_PARALLEL = 4;

/** A branch step a parent's step ran: the branch as it then stood, and its step; or its error. */
export type BranchStepOutcome =
  | { thread: string; record: ThreadRecord; step: StepSummary | null }
  | { thread: string; error: unknown };

export interface StepWaitingParentOptions extends SettleParentOptions {
  /** At most this many branches at once (`--parallel`), below the fan-out's `maxConcurrent`. */
  parallel?: number;
  /** Step every runnable branch once (still `parallel` at a time), not just the first `parallel` of them: `run`, `step --all`. */
  all?: boolean;
  /** Steps one branch (stepThread on it, without the parent's resume). */
  stepBranch(threadId: string): Promise<BranchStepOutcome>;
}

/** What one step of a waiting parent did. */
export interface WaitingParentStep {
  /** The parent after it: still `waiting`, `active` for its join, `suspended` for its budget, or `failed`. */
  record: ThreadRecord;
  branches: BranchStepOutcome[];
  /** Nothing can run here: every branch still pending is suspended, waiting for its own `uwf resume`. */
  blocked: boolean;
  /** Some branch was stepped (false when every runnable one was being stepped by another process). */
  progressed: boolean;
  /** The pending branches that are suspended, for the caller to name. */
  suspended: BranchStanding[];
  /** Set when the branches stepped here made the join impossible: the parent is `failed`. */
  failure?: BranchFailedError;
}

/**
 * One step of a parent waiting for its branches (DESIGN §4): its branches are made if a crash left them
 * unmade, its join's policy is applied, and if it still waits, one step of each branch that can run (up
 * to `parallel` and `maxConcurrent` at once, in branch order), each settling the parent as it finishes.
 * A parent whose budget its branches reached is suspended for it instead; a join that can no longer be
 * met throws BranchFailedError with the parent `failed`.
 */
export async function stepWaitingParent(
  parent: ThreadRecord,
  options: StepWaitingParentOptions,
): Promise<WaitingParentStep> {
  const settled = await settleParent(parent.id, options);
  const record = settled?.record ?? parent;
  if (record.status === "failed") throw await branchFailed(options, record, settled?.standings ?? []);
  if (record.status !== "waiting" || settled?.fanOut === null || settled === null) {
    return { record, branches: [], blocked: false, progressed: false, suspended: [] };
  }
  const fanOut = settled.fanOut as FanOutState;
  const runnable = settled.standings.filter((branch) => branch.status === "active" || branch.status === "waiting");
  const suspended = settled.standings.filter((branch) => branch.status === "suspended");
  const width = Math.max(
    1,
    Math.min(options.parallel ?? DEFAULT_BRANCH_PARALLEL, fanOut.plan.maxConcurrent ?? Infinity),
  );
  // One step of the parent is one step of at most `width` branches; `all` keeps `width` going until each stepped.
  const chosen = options.all === true ? runnable : runnable.slice(0, width);
  const outcomes: BranchStepOutcome[] = [];
  let atBudget: ThreadRecord | null = null;
  let next = 0;
  // Every branch's spend counts against the parent's budget: read once, then each step of this call added.
  const spend = await ParentSpend.read(options.store, record);
  // Branch steps this call has started and not finished (or is about to start): each counts against the
  // budget as a step spent, else lanes checking at once would all start and overshoot the limit.
  let inFlight = 0;
  let stoppedForBudget = false;
  const lanes = Array.from({ length: Math.min(width, Math.max(1, chosen.length)) }, async () => {
    while (atBudget === null && !stoppedForBudget) {
      if (spend.reached(inFlight) !== null) {
        // At its limit no branch step starts; the parent is suspended once the steps in flight have ended.
        stoppedForBudget = true;
        break;
      }
      const branch = chosen[next++];
      if (branch === undefined) break;
      inFlight++;
      try {
        const outcome = await options.stepBranch(branch.thread);
        outcomes.push(outcome);
        if ("step" in outcome && outcome.step !== null) spend.add(outcome.step.usage);
      } finally {
        inFlight--;
      }
    }
  });
  await Promise.all(lanes);
  if (stoppedForBudget) {
    // Read again: the parent is suspended only if what it and its branches spent reaches a limit.
    atBudget = (await suspendParentAtBudget(options.store, record, options.now()))?.record ?? null;
  }
  if (atBudget !== null) {
    return { record: atBudget, branches: outcomes, blocked: false, progressed: outcomes.length > 0, suspended };
  }
  const after = await settleParent(parent.id, options);
  const latest = after?.record ?? record;
  // The branch steps that failed the join are still reported beside the failure.
  const failure = latest.status === "failed" ? await branchFailed(options, latest, after?.standings ?? []) : undefined;
  const stepped = outcomes.filter((outcome) => !("error" in outcome) || !(outcome.error instanceof ThreadBusyError));
  return {
    record: latest,
    branches: outcomes,
    blocked: latest.status === "waiting" && runnable.length === 0,
    progressed: stepped.length > 0,
    suspended,
    ...(failure === undefined ? {} : { failure }),
  };
}

/**
 * The error for a parent its join failed, naming the branch that broke it. The branches are read again
 * when the settle that failed it was another's (a branch's own step settles its parent): then this
 * step saw the parent already failed, with no standings of its own.
 */
async function branchFailed(
  options: Pick<StepWaitingParentOptions, "store">,
  record: ThreadRecord,
  standings: readonly BranchStanding[],
): Promise<BranchFailedError> {
  let seen = standings;
  if (seen.length === 0) {
    const links = await options.store.refs.listBranches(record.id, record.stepCount);
    seen = await Promise.all(
      links.map(async (link) => ({
        key: link.key,
        thread: link.thread,
        status: (await options.store.refs.getThread(link.thread))?.status ?? null,
      })),
    );
  }
  return new BranchFailedError(record, brokenBranch(seen));
}

/** The branch that broke the join: a failed one before a cancelled one (failFast cancels the rest after it). */
function brokenBranch(standings: readonly BranchStanding[]): BranchStanding | null {
  const broken = standings.filter(
    (branch) =>
      branch.status !== "ended" &&
      branch.status !== "active" &&
      branch.status !== "waiting" &&
      branch.status !== "suspended",
  );
  return broken.find((branch) => branch.status === "failed") ?? broken[0] ?? null;
}
