// The @uwf/engine entry: the thread engine as a library (see README.md). Above @uwf/cas, @uwf/workflow
// and @uwf/agent-kit, below @uwf/cli; it knows no command line, prints nothing and exits nothing.

export { type CheckedAnswer, checkResumeAnswer, type GivenAnswer } from "./answers/check-answer.ts";
export { isAnswerable, loadSuspensionView } from "./answers/read-suspension.ts";
export { readSuspensionWait, type SuspensionWait } from "./answers/read-suspension-wait.ts";
export { type CancelWithBranchesOptions, cancelWithBranches } from "./branches/cancel-with-branches.ts";
export { countChainSteps, countThread } from "./branches/count-thread.ts";
export { type EnsureBranchesOptions, ensureBranches, type FanOutState } from "./branches/ensure-branches.ts";
export { listBranchFamily } from "./branches/list-branch-family.ts";
export { loadBranchGroups } from "./branches/load-branch-groups.ts";
export { spentWithBranches } from "./branches/parent-budget.ts";
export { readFanOut } from "./branches/read-fan-out.ts";
export { type SettledParent, type SettleParentOptions, settleParent } from "./branches/settle-parent.ts";
export { DEFAULT_BRANCH_PARALLEL } from "./branches/step-waiting-parent.ts";
export { describeReachedLimit, formatAmount } from "./budget/describe-reached-limit.ts";
export {
  AgentFailedError,
  AmbiguousThreadError,
  asEnvironmentError,
  BranchFailedError,
  BrokenChainError,
  BudgetExceededError,
  CancelPendingError,
  classifyStepFailure,
  EnvironmentError,
  type EnvironmentErrorCode,
  HeadConflictError,
  InterruptedError,
  InvalidAnswerError,
  InvalidScheduleError,
  LeaseLostError,
  NodeNotOnThreadError,
  NoReplyToReplaceError,
  NotAThreadNodeError,
  NotAWorkflowError,
  ResumeMismatchError,
  type ResumeNeed,
  ScheduleNotFoundError,
  type StepFailureKind,
  SuspendTimeoutError,
  ThreadAlreadyEndedError,
  ThreadBusyError,
  ThreadCancelledError,
  ThreadEndedError,
  ThreadFailedError,
  ThreadNotFoundError,
  ThreadNotResumableError,
  ThreadRecordBehindError,
  ThreadStrandedError,
  ThreadSuspendedError,
  UnexpectedNodeKindError,
  UnroutableReplyError,
  WorkflowMismatchError,
  WorkflowNotFoundError,
} from "./errors/index.ts";
export { ScenarioNotExportableError } from "./errors/scenario-not-exportable-error.ts";
export { buildFamilyTree } from "./fork/build-family-tree.ts";
export { type CompareFamilyOptions, type CompareTarget, compareFamily } from "./fork/compare-family.ts";
export { type DiffChainsOptions, type DiffTarget, diffChains } from "./fork/diff-chains.ts";
export {
  FORK_BATCH_SIZE,
  type ForkThreadOptions,
  type ForkThreadsOptions,
  forkThread,
  forkThreads,
  type ReplacementReply,
} from "./fork/fork-thread.ts";
export { expandNode } from "./history/expand-node.ts";
export type { HistoryStep } from "./history/history-step.ts";
export { loadHistory } from "./history/load-history.ts";
export { loadStepSummaries, toStepSummary } from "./history/load-step-summaries.ts";
export { type ChainStep, type ReadChainOptions, readChain, type ThreadChain } from "./history/read-chain.ts";
export {
  CANCEL_WAIT_MS,
  type CancelThreadOptions,
  type CancelThreadResult,
  cancelThread,
} from "./lease/cancel-thread.ts";
export { type ClaimOrphanedThreadOptions, claimOrphanedThread } from "./lease/claim-orphaned-thread.ts";
export { listRunningThreads, type RunningThread } from "./lease/list-running-threads.ts";
export { leaseLifetimeMs, STEP_LEASE_TTL_MS } from "./lease/step-lease-ttl.ts";
export {
  type HeldLease,
  type HoldLeaseOptions,
  holdLease,
  type LeaseHold,
  stopReplacedAgent,
  type WithThreadLeaseOptions,
  withThreadLease,
} from "./lease/with-thread-lease.ts";
export { type DropDamagedChainIndexesOptions, dropDamagedChainIndexes } from "./repair/drop-damaged-chain-indexes.ts";
export { type ChainIndexProblem, findChainIndexProblems } from "./repair/find-chain-index-problems.ts";
export {
  type AbandonedHead,
  type FindUnrecordedHeadsOptions,
  findUnrecordedHeads,
  type UnrecordedHead,
  type UnrecordedHeads,
} from "./repair/find-unrecorded-heads.ts";
export {
  NOT_REBUILT,
  type RecoverThreadsOptions,
  type RecoverThreadsResult,
  recoverThreads,
} from "./repair/recover-threads.ts";
export {
  type LoadReplayWorkflowOptions,
  loadReplayWorkflow,
  type ReplayWorkflow,
} from "./replay/load-replay-workflow.ts";
export { replayThread } from "./replay/replay-thread.ts";
export { type ReplayThreadsOptions, replayThreads } from "./replay/replay-threads.ts";
export { type ExportedScenarios, type ExportScenariosOptions, exportScenarios } from "./scenarios/export-scenarios.ts";
export { exportThreadScenario } from "./scenarios/export-thread-scenario.ts";
export { serializeScenario } from "./scenarios/serialize-scenario.ts";
export {
  buildSchedule,
  COMMAND_FIELD_NAMES,
  nextFireAfter,
  type ScheduleFieldNames,
  type ScheduleInput,
  WORKFLOW_FIELD_NAMES,
} from "./schedules/build-schedule.ts";
export {
  type FireSchedulesOptions,
  fireDueSchedules,
  type ScheduleFire,
  type TriggerScheduleOptions,
  triggerSchedule,
} from "./schedules/fire-due-schedules.ts";
export {
  type AddScheduleOptions,
  addSchedule,
  getScheduleOrThrow,
  type RegisterWorkflowScheduleOptions,
  registerWorkflowSchedule,
  removeSchedule,
  setSchedulePaused,
  type WorkflowScheduleChange,
} from "./schedules/manage-schedules.ts";
export {
  answeredSuspensionPrompt,
  answeredTypedSuspensionPrompt,
  readAnsweredSuspension,
} from "./step/answered-suspension.ts";
export { describeFailure, failThread } from "./step/fail-thread.ts";
export {
  type FindRecordedResumeOptions,
  findRecordedResume,
  type RecordedResume,
} from "./step/find-recorded-resume.ts";
export { type ResumeThreadOptions, resumeThread } from "./step/resume-thread.ts";
export type { StepAgentCallbacks, StepStart } from "./step/run-step-agent.ts";
export { type RunThreadToEndOptions, runThreadToEnd } from "./step/run-thread-to-end.ts";
export { type Resume, type StepThreadOptions, type StepThreadOutcome, stepThread } from "./step/step-thread.ts";
export { type StepUntilDoneOptions, type StepUntilDoneResult, stepUntilDone } from "./step/step-until-done.ts";
export {
  type ExpireDueSuspensionsOptions,
  type ExpireDueSuspensionsResult,
  type ExpiredSuspension,
  expireDueSuspensions,
} from "./suspensions/expire-due-suspensions.ts";
export { type DeleteThreadOptions, deleteThread } from "./thread/delete-thread.ts";
export { newThreadId } from "./thread/new-thread-id.ts";
export { type QueueOutcome, type QueueThreadOptions, queueThread } from "./thread/queue-thread.ts";
export {
  type RequeueFailedThreadOptions,
  type RequeueOutcome,
  requeueFailedThread,
} from "./thread/requeue-failed-thread.ts";
export { type NodeOrThread, resolveNodeOrThread } from "./thread/resolve-node-or-thread.ts";
export { resolveThread } from "./thread/resolve-thread.ts";
export {
  type StartThreadOptions,
  type StartThreadsOptions,
  startThread,
  startThreads,
  type ThreadStart,
} from "./thread/start-thread.ts";
export {
  FULL_HEAD_CHECK_LIMIT,
  type ListThreadViewsOptions,
  listThreadViews,
  type ThreadListQuery,
} from "./view/list-thread-views.ts";
export { loadBudgetReport } from "./view/load-budget-report.ts";
export { loadShownThread, type ShownThreadView } from "./view/load-shown-thread.ts";
export { loadThreadLog } from "./view/load-thread-log.ts";
export { loadThreadView, recordView, type ThreadView, type ThreadViewParts } from "./view/load-thread-view.ts";
export type { WaitingFor } from "./view/load-waiting-for.ts";
export { readAgentOutput } from "./view/read-agent-output.ts";
export { listedThreadOf, logResultOf, shownThreadOf, stepResultOf } from "./view/thread-view-results.ts";
export { toShownThread } from "./view/to-shown-thread.ts";
export { type FollowThreadOptions, followThread } from "./watch/follow-thread.ts";
export { standingEvent } from "./watch/standing-event.ts";
export { type WaitedThreads, type WaitForThreadsOptions, waitForThreads } from "./watch/wait-for-threads.ts";
export {
  type StoreWatch,
  WATCH_LOOKBACK_MS,
  type WatchStoreOptions,
  watchStore,
} from "./watch/watch-store.ts";
export { DEFAULT_RETRY_POLICY, type RetryPolicy, resolveRetryPolicy, retryDelayMs } from "./worker/retry-policy.ts";
export { type RunWorkerOptions, runWorker, WORKER_POLL_MS } from "./worker/run-worker.ts";
export {
  type ClaimedThreadOutcome,
  type ThreadReleaseReason,
  type WorkClaimedThreadOptions,
  workClaimedThread,
} from "./worker/work-claimed-thread.ts";
export { type ResolveStoredWorkflowOptions, resolveStoredWorkflow } from "./workflows/resolve-stored-workflow.ts";
export {
  type RegisterWorkflowFileOptions,
  type ResolvedWorkflow,
  type ResolveWorkflowOptions,
  registerWorkflowFile,
  resolveWorkflow,
} from "./workflows/resolve-workflow.ts";
