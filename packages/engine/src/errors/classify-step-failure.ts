import { type ErrorCode, isUwfError } from "@uwf/protocol";

/**
 * What a worker does after a step of a claimed thread failed: `retry` it (and set the thread `failed`
 * once the retries are spent); or let the thread go as it is, because the step was `interrupted` (the
 * worker is stopping), the worker `lost` the thread (its lease was taken over or could not be renewed,
 * or the head moved), stepping it was `refused` (it is no longer active), or its agent is `misconfigured`
 * (no agent for the role, an alias config.yaml lacks: nothing ran, so retrying cannot help until the
 * config changes).
 */
export type StepFailureKind = "retry" | "interrupted" | "lost" | "refused" | "misconfigured";

const KIND_BY_CODE: Readonly<Partial<Record<ErrorCode, StepFailureKind>>> = {
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
  "no-agent": "misconfigured",
  "unknown-agent": "misconfigured",
  "agent-unavailable": "misconfigured",
};

/**
 * Any other failure is retried: an agent that failed or kept replying what cannot be used (the engine
 * already asked it again within the step, so that counts as one failed step), the store refusing a
 * write, a workflow that cannot route. A failure that will not go away costs only the retries' waits.
 */
export function classifyStepFailure(error: unknown): StepFailureKind {
  return (isUwfError(error) ? KIND_BY_CODE[error.code] : undefined) ?? "retry";
}

/**
 * Failures of the machine or the store, not of the thread's step: a full disk, a read-only mount,
 * missing permissions, a store that cannot be reached or written. A step run from the command line
 * that fails so leaves its thread as it was (the same step goes through once the machine is fixed);
 * a worker still retries them and, after its retries, sets the thread `failed`.
 */
const MACHINE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "no-space",
  "read-only-file-system",
  "permission-denied",
  "io-error",
  "too-many-open-files",
  "store-unreachable",
  "store-refused",
  "store-too-new",
  "ref-store-busy",
  "ref-store-damaged",
  "ref-store-unavailable",
  "corrupt-node",
]);

/**
 * Mistakes of the configuration, found before any agent ran: no agent for the role, an alias config.yaml
 * does not define, an agent kind this uwf cannot launch. Nothing ran, so nothing failed: the thread
 * stays as it was (DESIGN §5: a thread is `failed` only when something ran and failed).
 */
const CONFIG_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(["no-agent", "unknown-agent", "agent-unavailable"]);

/**
 * Whether a failed step's error code (after describeFailure) is the step's own, which sets its thread
 * `failed`. A thread whose record is behind its own later steps (`thread-record-behind`) is left as it is
 * from the command line, which names `uwf cas recover`; a worker, which would claim it again and again,
 * retries it and then sets it `failed` with that error (recover drops the failure as it moves it forward).
 */
export function failsThread(error: unknown, code: ErrorCode): boolean {
  return (
    classifyStepFailure(error) === "retry" &&
    !MACHINE_CODES.has(code) &&
    !CONFIG_CODES.has(code) &&
    code !== "thread-record-behind"
  );
}
