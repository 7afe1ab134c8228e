import type { ErrorBody, ListedThread, LogResult, ShownThread, StepResult, StepSummary } from "@uwf/protocol";
import type { ThreadView } from "./load-thread-view.ts";
import { toShownThread } from "./to-shown-thread.ts";

/** `show`'s thread (and `cancel`'s): the record with its budget, and the counts, inputs, branches and question loaded. */
export function shownThreadOf(view: ThreadView): ShownThread {
  const { branches, suspension, inputs, counts } = view;
  return {
    ...toShownThread(view.record, view.budget),
    ...(counts === undefined ? {} : { counts }),
    ...(inputs === undefined ? {} : { inputs }),
    ...(branches === undefined || branches.length === 0 ? {} : { branches }),
    ...(suspension === undefined || suspension === null ? {} : { suspension }),
  };
}

/** A row of `list`: the record with its budget, and when a suspension with a `suspendTimeout` runs out. */
export function listedThreadOf(view: ThreadView): ListedThread {
  const shown = toShownThread(view.record, view.budget);
  return view.wait === undefined || view.wait === null ? shown : { ...shown, deadline: view.wait.deadline };
}

/** `log`: the thread's steps, the failed attempt after them, its outcome, spend, counts and fan-outs. */
export function logResultOf(view: ThreadView): LogResult {
  const { record, budget, counts, branches } = view;
  const { failure, outcome } = record;
  return {
    thread: record.id,
    steps: view.steps ?? [],
    // The failed attempt sits where it happened: after the steps, as the step it was to be.
    ...(failure === undefined || record.status !== "failed"
      ? {}
      : { failed: [{ ...failure, number: record.stepCount + 1, role: record.next }] }),
    ...(outcome === undefined ? {} : { outcome }),
    ...(record.failedUsage === undefined ? {} : { failedUsage: record.failedUsage }),
    ...(budget === undefined ? {} : { budget }),
    ...(counts === undefined ? {} : { counts }),
    ...(branches === undefined || branches.length === 0 ? {} : { branches }),
  };
}

/**
 * What `step`, `run`, `resume` and `log --follow` report: where the thread stands and the `steps` they
 * saw; `error` (described by the caller's error boundary) when the command failed once it knew the
 * thread; a suspended thread's question and a waiting parent's pending branches when the view has them.
 */
export function stepResultOf(view: ThreadView, steps: StepSummary[], error?: ErrorBody): StepResult {
  const { record, budget } = view;
  const result: StepResult = { thread: record.id, head: record.head, status: record.status, next: record.next, steps };
  if (record.status === "suspended") result.reason = record.reason ?? "";
  if (record.outcome !== undefined) result.outcome = record.outcome;
  if (record.failure !== undefined) result.failure = record.failure;
  if (budget !== undefined) result.budget = budget;
  if (error !== undefined) result.error = error;
  // A role's question, and the answer it needs, for a bot or a form (absent when the budget suspended it).
  if (record.status === "suspended" && view.suspension !== undefined && view.suspension !== null)
    result.suspension = view.suspension;
  if (view.waitingFor !== undefined) result.waitingFor = view.waitingFor.shown;
  return result;
}
