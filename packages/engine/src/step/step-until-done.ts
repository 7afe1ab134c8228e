import { isUwfError, type StepSummary, type ThreadRecord } from "@uwf/protocol";
import { BudgetExceededError } from "../errors/budget-exceeded-error.ts";
import { ThreadCancelledError } from "../errors/thread-cancelled-error.ts";
import { ThreadEndedError } from "../errors/thread-ended-error.ts";
import { ThreadFailedError } from "../errors/thread-failed-error.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";
import { ThreadSuspendedError } from "../errors/thread-suspended-error.ts";
import { loadThreadView, type ThreadView, type ThreadViewParts } from "../view/load-thread-view.ts";
import { sleepUnlessAborted } from "../watch/sleep-unless-aborted.ts";
import type { StepStart } from "./run-step-agent.ts";
import { type StepThreadOptions, stepThread } from "./step-thread.ts";

/** How long a parent whose runnable branches are all being stepped elsewhere waits before looking again. */
const BRANCH_POLL_MS = 200;

/** The codes of a step refused because of where its thread stands: no agent ran. */
const REFUSALS: ReadonlySet<string> = new Set([
  ThreadEndedError.code,
  ThreadSuspendedError.code,
  ThreadFailedError.code,
  BudgetExceededError.code,
]);

export interface StepUntilDoneOptions extends StepThreadOptions {
  /** At most this many steps; `Infinity` steps until the thread ends, suspends or a step fails. */
  maxSteps: number;
  /** `resume` applies to the first step only: the steps after it are plain ones. */
  resume?: StepThreadOptions["resume"];
  /** Asked before each step (and each round of a waiting parent's branch steps): true stops there, as if the steps were done. */
  shouldStop?(): boolean;
  /** After each step is recorded, with the thread as it then stands (awaited). */
  onStepFinished?(step: StepSummary, record: ThreadRecord): Promise<void> | void;
  /** After each step a branch recorded while its waiting parent was stepped, with the branch as it then stands (awaited). */
  onBranchStepFinished?(step: StepSummary, record: ThreadRecord): Promise<void> | void;
  /** A branch's step failed or was refused while its waiting parent was stepped (the branch is `failed` when its agent failed); awaited. */
  onBranchStepFailed?(thread: string, error: unknown): Promise<void> | void;
  /** The parts of the thread's view to load once the steps are done (loadThreadView), returned as `view`. */
  view?: ThreadViewParts;
}

export interface StepUntilDoneResult {
  /**
   * Where the thread stands: after its last step, or read again when a step failed (`failed` once its
   * retries are spent, see stepThread) or was refused.
   */
  record: ThreadRecord;
  /** The steps recorded, oldest first, including those before a step that failed. */
  steps: StepSummary[];
  /** The error that stopped the steps (a step failed or was refused); absent when none did. */
  error?: unknown;
  /** The error is a refusal: the thread had ended, was suspended or failed, or a resume was at its budget. */
  refused: boolean;
  /** The step whose agent had started when the error came; null when it came before that. */
  failedStep: StepStart | null;
  /** The thread as it stands, with the parts `view` asked for; absent without `view`. */
  view?: ThreadView;
}

/**
 * Steps a thread up to `maxSteps` times, stopping early when it ends or suspends (by a role, or for
 * its budget) or a step fails. A step's error is returned, not thrown, beside the steps recorded
 * before it; an error thrown by the caller's own callbacks (`onStarted`, `onStepFinished`, ...)
 * is thrown on, since it is not the step's. Throws ThreadNotFoundError when there is no such thread.
 */
export async function stepUntilDone(options: StepUntilDoneOptions): Promise<StepUntilDoneResult> {
  const done = await stepUntilStopped(options);
  if (options.view === undefined) return done;
  return { ...done, view: await loadThreadView(options.store, done.record, options.view) };
}

async function stepUntilStopped(options: StepUntilDoneOptions): Promise<StepUntilDoneResult> {
  const { store, threadId, maxSteps, onStepFinished, shouldStop: _shouldStop, view: _view, ...step } = options;
  const initial = await store.refs.getThread(threadId);
  if (initial === null) throw new ThreadNotFoundError(threadId);
  let record = initial;
  const steps: StepSummary[] = [];
  for (let index = 0; index < maxSteps; index++) {
    if (options.shouldStop?.() === true) break;
    let started: StepStart | null = null;
    let callbackFailure: { error: unknown } | null = null;
    let outcome: Awaited<ReturnType<typeof stepThread>>;
    try {
      outcome = await stepThread({
        ...step,
        store,
        threadId,
        resume: index === 0 ? options.resume : undefined,
        allBranches: options.allBranches ?? maxSteps === Number.POSITIVE_INFINITY,
        onStarted: async (start) => {
          started = start;
          try {
            await options.onStarted?.(start);
          } catch (error) {
            callbackFailure = { error };
            throw error;
          }
        },
      });
    } catch (error) {
      if (callbackFailure !== null) throw (callbackFailure as { error: unknown }).error;
      const refused = isUwfError(error) && REFUSALS.has(error.code);
      record = (await store.refs.getThread(threadId).catch(() => null)) ?? record;
      return { record, steps, error, refused, failedStep: started };
    }
    record = outcome.record;
    if (outcome.kind === "branches") {
      // A waiting parent's step stepped its branches: each branch step is reported as the branch's.
      for (const branch of outcome.branches) {
        if ("error" in branch) await options.onBranchStepFailed?.(branch.thread, branch.error);
        else if (branch.step !== null) await options.onBranchStepFinished?.(branch.step, branch.record);
      }
      if (outcome.failure !== undefined)
        return { record, steps, error: outcome.failure, refused: false, failedStep: null };
      // Cancelled while its branches ran (`uwf cancel` stopped them): it stopped as a plain thread cancelled mid-step does.
      if (record.status === "cancelled")
        return { record, steps, error: new ThreadCancelledError(threadId), refused: false, failedStep: null };
      if (outcome.blocked || (record.status !== "active" && record.status !== "waiting")) break;
      // Every runnable branch is being stepped elsewhere (workers): look again shortly.
      if (!outcome.progressed) await sleepUnlessAborted(BRANCH_POLL_MS, options.signal);
      if (options.signal.aborted) break;
      continue;
    }
    if (outcome.kind !== "stepped") break;
    steps.push(outcome.step);
    await onStepFinished?.(outcome.step, record);
    if (record.status !== "active" && record.status !== "waiting") break;
  }
  return { record, steps, refused: false, failedStep: null };
}
