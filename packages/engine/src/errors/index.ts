// The engine's errors: every UwfError subclass it throws (one per file, each with its stable `code`),
// and how a failed step is classified by its error. The package entry re-exports them by name.

export { AgentFailedError } from "./agent-failed-error.ts";
export { AmbiguousThreadError } from "./ambiguous-thread-error.ts";
export { BranchFailedError } from "./branch-failed-error.ts";
export { BrokenChainError } from "./broken-chain-error.ts";
export { BudgetExceededError } from "./budget-exceeded-error.ts";
export { CancelPendingError } from "./cancel-pending-error.ts";
export { classifyStepFailure, failsThread, type StepFailureKind } from "./classify-step-failure.ts";
export { asEnvironmentError, EnvironmentError, type EnvironmentErrorCode } from "./environment-error.ts";
export { HeadConflictError } from "./head-conflict-error.ts";
export { InterruptedError } from "./interrupted-error.ts";
export { InvalidAnswerError } from "./invalid-answer-error.ts";
export { InvalidScheduleError } from "./invalid-schedule-error.ts";
export { LeaseLostError, type LeaseLostErrorOptions } from "./lease-lost-error.ts";
export { NoReplyToReplaceError } from "./no-reply-to-replace-error.ts";
export { NodeNotOnThreadError } from "./node-not-on-thread-error.ts";
export { NotAThreadNodeError } from "./not-a-thread-node-error.ts";
export { NotAWorkflowError } from "./not-a-workflow-error.ts";
export { ResumeMismatchError, type ResumeNeed } from "./resume-mismatch-error.ts";
export { ScenarioNotExportableError } from "./scenario-not-exportable-error.ts";
export { ScheduleNotFoundError } from "./schedule-not-found-error.ts";
export { SuspendTimeoutError } from "./suspend-timeout-error.ts";
export { ThreadAlreadyEndedError } from "./thread-already-ended-error.ts";
export { ThreadBusyError } from "./thread-busy-error.ts";
export { ThreadCancelledError } from "./thread-cancelled-error.ts";
export { ThreadEndedError } from "./thread-ended-error.ts";
export { ThreadFailedError } from "./thread-failed-error.ts";
export { ThreadNotFoundError } from "./thread-not-found-error.ts";
export { ThreadNotResumableError } from "./thread-not-resumable-error.ts";
export { ThreadRecordBehindError } from "./thread-record-behind-error.ts";
export { ThreadStrandedError } from "./thread-stranded-error.ts";
export { ThreadSuspendedError } from "./thread-suspended-error.ts";
export { UnexpectedNodeKindError } from "./unexpected-node-kind-error.ts";
export { UnroutableReplyError } from "./unroutable-reply-error.ts";
export { WorkflowMismatchError } from "./workflow-mismatch-error.ts";
export { WorkflowNotFoundError } from "./workflow-not-found-error.ts";
