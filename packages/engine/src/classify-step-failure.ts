import { isUwfError } from "@uwf/protocol";

/**
 * What a worker does after a step of a claimed thread failed: `retry` it (and set the thread `failed`
 * once the retries are spent); or let the thread go as it is, because the step was `interrupted` (the
 * worker is stopping), the worker `lost` the thread (its lease was taken over or could not be renewed,
 * or the head moved), or stepping it was `refused` (it is no longer active).
 */
export type StepFailureKind = "retry" | "interrupted" | "lost" | "refused";

const KIND_BY_CODE: Readonly<Record<string, StepFailureKind>> = {
  interrupted: "interrupted",
  "hung-up": "interrupted",
  "lease-lost": "lost",
  "lease-renewal-failed": "lost",
  "head-conflict": "lost",
  "thread-busy": "lost",
  "thread-ended": "refused",
  "thread-suspended": "refused",
  "thread-cancelled": "refused",
  "thread-failed": "refused",
  "thread-not-found": "refused",
};

/**
 * Any other failure is retried: an agent that failed or kept replying what cannot be used (the engine
 * already asked it again within the step, so that counts as one failed step), the store refusing a
 * write, a workflow that cannot route. A failure that will not go away costs only the retries' waits.
 */
export function classifyStepFailure(error: unknown): StepFailureKind {
  return (isUwfError(error) ? KIND_BY_CODE[error.code] : undefined) ?? "retry";
}
