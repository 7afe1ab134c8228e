import { type StepStart, stepResultOf, type ThreadView } from "@uwf/engine";
import type { CliEvent, StepFailedEvent, StepResult, StepStartedEvent, StepSummary, ThreadRecord } from "@uwf/protocol";

/**
 * What `step`, `run`, `resume` and `log --follow` report (stepResultOf): where the thread stands and the
 * steps they saw, with the error that stopped them described as the error boundary reports it.
 */
export async function toStepResult(view: ThreadView, steps: StepSummary[], failure?: unknown): Promise<StepResult> {
  if (failure === undefined) return stepResultOf(view, steps);
  // Loaded only when a command fails, as the error boundary is.
  const { describeError } = await import("../../../describe-error.ts");
  return stepResultOf(view, steps, describeError(failure));
}

/** A step's agent is starting: of the thread stepped, or of one of its branches when a waiting parent was stepped. */
export function stepStartedEvent(started: StepStart): StepStartedEvent {
  const { thread, number, role, agent, at } = started;
  return { type: "step-started", thread, number, role, agent, at: at.toISOString() };
}

export function stepFinishedEvent(thread: string, step: StepSummary): CliEvent {
  return { type: "step-finished", thread, ...step };
}

/** A step that failed: the one it was about to be (or, when it failed before it started, the next one). */
export async function stepFailedEvent(
  record: ThreadRecord,
  started: StepStart | null,
  failure: unknown,
): Promise<StepFailedEvent> {
  const { describeError } = await import("../../../describe-error.ts");
  const error = describeError(failure);
  return {
    type: "step-failed",
    thread: record.id,
    number: started?.number ?? record.stepCount + 1,
    role: started?.role ?? null,
    error,
    run: typeof error.data.run === "string" ? error.data.run : null,
  };
}
