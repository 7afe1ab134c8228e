import type { StepSummary } from "@uwf/protocol";
import { loadThreadView } from "../view/load-thread-view.ts";
import { findRecordedResume } from "./find-recorded-resume.ts";
import { type StepUntilDoneOptions, type StepUntilDoneResult, stepUntilDone } from "./step-until-done.ts";

export interface RunThreadToEndOptions extends Omit<StepUntilDoneOptions, "maxSteps"> {
  /**
   * The folder a relative `scripted:FILE` of `defaultAgent` is read from, for its recorded answers (the
   * caller's cwd, a suite's folder). Without it no recorded answer is played: a suspension stops the run
   * (an exploration's re-runs).
   */
  baseDir?: string;
  /** A suspension (the thread's or a branch's) or an end about to be resumed with the answer its scenario records. */
  onRecordedResume?(thread: string, step: number): Promise<void> | void;
  /**
   * After each round of steps (awaited): the first, each resumption with a recorded answer (`thread` is the
   * one resumed: the run's own or a branch's), and the parent going on after a branch's. With `view`, each
   * round's result has the thread's view as that round left it. `uwf run` reports each round as a `uwf step`.
   */
  onRound?(thread: string, round: StepUntilDoneResult): Promise<void> | void;
  /**
   * A resumed branch whose step failed or was refused ends the run there, with that round's error (`uwf run`);
   * otherwise (the default) it is told to `onBranchStepFailed` and the parent goes on.
   */
  stopWhenABranchFails?: boolean;
}

/**
 * Runs a thread to its end, as `uwf run` does: every step of the thread, and of a waiting parent every
 * runnable branch (nested fan-outs too) and then its join. Eval suites and explorations run their threads
 * with it. With a `scripted:FILE` agent and a `baseDir`, a suspension —
 * the thread's own or a branch's — or an end that the scenario records an answer for is resumed with it
 * (findRecordedResume) and the run goes on. Stops when the thread ends, suspends or fails with nothing
 * recorded to go on with, when a step fails, or when `shouldStop` says so. The steps returned are the
 * thread's own (its branches' are reported through `onBranchStepFinished`).
 */
export async function runThreadToEnd(options: RunThreadToEndOptions): Promise<StepUntilDoneResult> {
  const done = await runUntilStopped(options);
  if (options.view === undefined || done.view !== undefined) return done;
  return { ...done, view: await loadThreadView(options.store, done.record, options.view) };
}

async function runUntilStopped(options: RunThreadToEndOptions): Promise<StepUntilDoneResult> {
  const { baseDir, onRecordedResume, onRound, stopWhenABranchFails, view, ...rest } = options;
  // Each round loads the view it reports; without onRound only the last one's is loaded, at the end.
  const step = onRound === undefined || view === undefined ? rest : { ...rest, view };
  const round = async (thread: string, options: StepUntilDoneOptions) => {
    const done = await stepUntilDone(options);
    await onRound?.(thread, done);
    return done;
  };
  const steps: StepSummary[] = [];
  let done = await round(options.threadId, { ...step, maxSteps: Number.POSITIVE_INFINITY, allBranches: true });
  steps.push(...done.steps);
  while (
    baseDir !== undefined &&
    done.error === undefined &&
    options.shouldStop?.() !== true &&
    !options.signal.aborted
  ) {
    const found = await findRecordedResume(options.store, done.record, { agent: options.defaultAgent, baseDir });
    if (found === null) break;
    await onRecordedResume?.(found.thread, found.step);
    const own = found.thread === options.threadId;
    const resumed = await round(found.thread, {
      ...step,
      ...(own ? {} : { threadId: found.thread, onStepFinished: options.onBranchStepFinished }),
      resume: found.resume,
      maxSteps: Number.POSITIVE_INFINITY,
      allBranches: true,
    });
    if (own) {
      steps.push(...resumed.steps);
      done = resumed;
      continue;
    }
    if (resumed.error !== undefined && stopWhenABranchFails === true) return { ...resumed, steps };
    if (resumed.error !== undefined && !resumed.refused)
      await options.onBranchStepFailed?.(found.thread, resumed.error);
    // The branch went on (its parent is settled as it ends): the parent goes on from where it stands.
    done = await round(options.threadId, { ...step, maxSteps: Number.POSITIVE_INFINITY, allBranches: true });
    steps.push(...done.steps);
    if (resumed.steps.length === 0 && done.steps.length === 0) break;
  }
  return { ...done, steps };
}
