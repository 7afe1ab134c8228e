// The @uwf/engine entry: the thread engine as a library (see README.md). Above @uwf/cas, @uwf/workflow
// and @uwf/agents, below @uwf/cli; it knows no command line, prints nothing and exits nothing.

export { AgentFailedError } from "./agent-failed-error.ts";
export { AmbiguousThreadError } from "./ambiguous-thread-error.ts";
export { answeredSuspensionPrompt, readAnsweredSuspension } from "./answered-suspension.ts";
export { BrokenChainError } from "./broken-chain-error.ts";
export { BudgetExceededError } from "./budget-exceeded-error.ts";
export { buildFamilyTree } from "./build-family-tree.ts";
export { CancelPendingError } from "./cancel-pending-error.ts";
export { CANCEL_WAIT_MS, type CancelThreadOptions, type CancelThreadResult, cancelThread } from "./cancel-thread.ts";
export { type ClaimOrphanedThreadOptions, claimOrphanedThread } from "./claim-orphaned-thread.ts";
export { classifyStepFailure, type StepFailureKind } from "./classify-step-failure.ts";
export { type DeleteThreadOptions, deleteThread } from "./delete-thread.ts";
export { describeReachedLimit, formatAmount } from "./describe-reached-limit.ts";
export { type DiffChainsOptions, type DiffTarget, diffChains } from "./diff-chains.ts";
export { type DropDamagedChainIndexesOptions, dropDamagedChainIndexes } from "./drop-damaged-chain-indexes.ts";
export { asEnvironmentError, EnvironmentError, type EnvironmentErrorCode } from "./environment-error.ts";
export { expandNode } from "./expand-node.ts";
export { describeFailure, failThread } from "./fail-thread.ts";
export { type ChainIndexProblem, findChainIndexProblems } from "./find-chain-index-problems.ts";
export {
  type AbandonedHead,
  type FindUnrecordedHeadsOptions,
  findUnrecordedHeads,
  type UnrecordedHead,
  type UnrecordedHeads,
} from "./find-unrecorded-heads.ts";
export { type FollowThreadOptions, followThread } from "./follow-thread.ts";
export {
  FORK_BATCH_SIZE,
  type ForkThreadOptions,
  type ForkThreadsOptions,
  forkThread,
  forkThreads,
  type ReplacementReply,
} from "./fork-thread.ts";
export { HeadConflictError } from "./head-conflict-error.ts";
export { InterruptedError } from "./interrupted-error.ts";
export { LeaseLostError } from "./lease-lost-error.ts";
export { listRunningThreads, type RunningThread } from "./list-running-threads.ts";
export { type HistoryStep, loadHistory } from "./load-history.ts";
export { loadStepSummaries } from "./load-step-summaries.ts";
export { NoReplyToReplaceError } from "./no-reply-to-replace-error.ts";
export { NodeNotOnThreadError } from "./node-not-on-thread-error.ts";
export { NotAThreadNodeError } from "./not-a-thread-node-error.ts";
export { NotAWorkflowError } from "./not-a-workflow-error.ts";
export { type ChainStep, type ReadChainOptions, readChain, type ThreadChain } from "./read-chain.ts";
export {
  NOT_REBUILT,
  type RecoverThreadsOptions,
  type RecoverThreadsResult,
  recoverThreads,
} from "./recover-threads.ts";
export {
  type RequeueFailedThreadOptions,
  type RequeueOutcome,
  requeueFailedThread,
} from "./requeue-failed-thread.ts";
export { type NodeOrThread, resolveNodeOrThread } from "./resolve-node-or-thread.ts";
export { resolveThread } from "./resolve-thread.ts";
export {
  type RegisterWorkflowFileOptions,
  type ResolvedWorkflow,
  type ResolveWorkflowOptions,
  registerWorkflowFile,
  resolveWorkflow,
} from "./resolve-workflow.ts";
export { ResumeMismatchError, type ResumeNeed } from "./resume-mismatch-error.ts";
export { type ResumeThreadOptions, resumeThread } from "./resume-thread.ts";
export { DEFAULT_RETRY_POLICY, type RetryPolicy, resolveRetryPolicy, retryDelayMs } from "./retry-policy.ts";
export type { StepAgentCallbacks, StepStart } from "./run-step-agent.ts";
export { type RunWorkerOptions, runWorker, WORKER_POLL_MS } from "./run-worker.ts";
export { type StartThreadOptions, startThread } from "./start-thread.ts";
export {
  type Resume,
  STEP_LEASE_TTL_MS,
  type StepThreadOptions,
  type StepThreadOutcome,
  stepThread,
} from "./step-thread.ts";
export { type StepUntilDoneOptions, type StepUntilDoneResult, stepUntilDone } from "./step-until-done.ts";
export { ThreadAlreadyEndedError } from "./thread-already-ended-error.ts";
export { ThreadBusyError } from "./thread-busy-error.ts";
export { ThreadCancelledError } from "./thread-cancelled-error.ts";
export { ThreadEndedError } from "./thread-ended-error.ts";
export { ThreadFailedError } from "./thread-failed-error.ts";
export { ThreadNotFoundError } from "./thread-not-found-error.ts";
export { ThreadNotResumableError } from "./thread-not-resumable-error.ts";
export { ThreadStrandedError } from "./thread-stranded-error.ts";
export { ThreadSuspendedError } from "./thread-suspended-error.ts";
export { UnexpectedNodeKindError } from "./unexpected-node-kind-error.ts";
export { UnroutableReplyError } from "./unroutable-reply-error.ts";
export { type WaitedThreads, type WaitForThreadsOptions, waitForThreads } from "./wait-for-threads.ts";
export {
  type HeldLease,
  type HoldLeaseOptions,
  holdLease,
  type LeaseHold,
  stopReplacedAgent,
  type WithThreadLeaseOptions,
  withThreadLease,
} from "./with-thread-lease.ts";
export {
  type ClaimedThreadOutcome,
  type ThreadReleaseReason,
  type WorkClaimedThreadOptions,
  workClaimedThread,
} from "./work-claimed-thread.ts";
export { WorkflowNotFoundError } from "./workflow-not-found-error.ts";
