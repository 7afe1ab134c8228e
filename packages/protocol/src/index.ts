export {
  type BranchGroup,
  type BranchView,
  branchGroupSchema,
  branchViewSchema,
} from "./branches/branch-group.ts";
export {
  type BranchError,
  type BranchResult,
  branchErrorSchema,
  branchResultSchema,
  type FanOutNode,
  fanOutNodeSchema,
  type JoinedBranchesNode,
  joinedBranchesNodeSchema,
  type PlannedBranch,
  plannedBranchSchema,
} from "./branches/branch-nodes.ts";
export {
  type BudgetInput,
  type BudgetLimit,
  type BudgetLimits,
  type BudgetReport,
  type BudgetSpent,
  budgetInputSchema,
  budgetReportSchema,
  type ThreadBudget,
  threadBudgetSchema,
} from "./budget/budget.ts";
export { BUDGET_LIMITS } from "./budget/budget-limits.ts";
export {
  BUDGET_LIMIT_NAMES,
  budgetReport,
  budgetSpent,
  DEFAULT_MAX_STEPS,
  findExceededLimit,
  limitsFromInput,
  mergeBudgetLimits,
  newThreadBudget,
  spentOn,
} from "./budget/budget-math.ts";
export { type Usage, usageSchema } from "./budget/usage.ts";
export { addUsage, ZERO_USAGE } from "./budget/usage-math.ts";
export {
  type AgentSpec,
  type AnthropicAgentSpec,
  agentSpecSchema,
  anthropicAgentSpecSchema,
  type CommandAgentSpec,
  commandAgentSpecSchema,
  type OpenaiAgentSpec,
  openaiAgentSpecSchema,
  type PresetAgentSpec,
  presetAgentSpecSchema,
  type ScriptedAgentSpec,
  type ShellAgentSpec,
  scriptedAgentSpecSchema,
  shellAgentSpecSchema,
} from "./config/agent-spec.ts";
export {
  type Config,
  configSchema,
  type Model,
  modelSchema,
  type Prices,
  type Provider,
  pricesSchema,
  providerSchema,
  type WorkerConfig,
  workerConfigSchema,
} from "./config/config.ts";
export { CONFIG_SCHEMA_REVISION, defaultConfig } from "./config/default-config.ts";
export {
  type HttpMcpServerSpec,
  httpMcpServerSpecSchema,
  type McpServerSpec,
  type McpServers,
  mcpServerSpecSchema,
  mcpServersSchema,
  type StdioMcpServerSpec,
  stdioMcpServerSpecSchema,
} from "./config/mcp-server-spec.ts";
export { ambiguousPrefixMessage } from "./errors/ambiguous-prefix-message.ts";
export type {
  CommandLineData,
  ConfigProblem,
  ErrorCode,
  ErrorDataByCode,
  InterruptedData,
  LeaseLostData,
  NoData,
  ResumeNeed,
  SystemErrorData,
  TriedTransition,
  UsageData,
} from "./errors/error-code.ts";
export {
  type ErrorBody,
  type ErrorResult,
  errorBodySchema,
  errorResultSchema,
} from "./errors/error-result.ts";
export { InternalError } from "./errors/internal-error.ts";
export { messageOf } from "./errors/message-of.ts";
export {
  type AnyUwfError,
  isUwfError,
  UwfError,
  type UwfErrorData,
  type UwfErrorJson,
  type UwfErrorOptions,
} from "./errors/uwf-error.ts";
export {
  commandAssertionSchema,
  type EvalAssertion,
  type EvalAssertionKind,
  evalAssertionSchema,
  jsonataAssertionSchema,
  judgeAssertionSchema,
  outcomeAssertionSchema,
  statusAssertionSchema,
} from "./eval/eval-assertion.ts";
export { EVAL_CHART_PALETTE, EVAL_VERDICT_COLORS } from "./eval/eval-chart-colors.ts";
export { type EvalGate, type EvalGateCheck, evalGateCheckSchema, evalGateSchema } from "./eval/eval-gate.ts";
export { type EvalReportNode, type EvalSource, evalReportNodeSchema, evalSourceSchema } from "./eval/eval-report.ts";
export { type EvalReportEntry, evalReportEntrySchema, evalReportIdSchema } from "./eval/eval-report-entry.ts";
export {
  type EvalDiffResult,
  type EvalListResult,
  type EvalResult,
  evalDiffResultSchema,
  evalListResultSchema,
  evalResultSchema,
} from "./eval/eval-results.ts";
export {
  type EvalSample,
  type EvalScore,
  type EvalScorerReply,
  evalSampleSchema,
  evalScorerReplySchema,
  evalScoreSchema,
} from "./eval/eval-sample.ts";
export {
  type SuiteCaseFile,
  type SuiteFile,
  type SuiteVariantFile,
  suiteCaseFileSchema,
  suiteFileSchema,
  suiteGateFileSchema,
  suiteVariantFileSchema,
} from "./eval/eval-suite-file.ts";
export {
  type EvalCaseSummary,
  type EvalComparison,
  type EvalDistribution,
  type EvalFieldSummary,
  type EvalGroupSummary,
  type EvalSummary,
  type EvalVariantSummary,
  evalCaseChangeSchema,
  evalCaseSummarySchema,
  evalComparisonSchema,
  evalDistributionSchema,
  evalFieldSummarySchema,
  evalGroupSummarySchema,
  evalMetricDeltaSchema,
  evalOutcomeCountSchema,
  evalPassAtKSchema,
  evalSummarySchema,
  evalVariantSummarySchema,
} from "./eval/eval-summary.ts";
export {
  type EvalStepView,
  type EvalThreadView,
  evalStepViewSchema,
  evalThreadViewSchema,
} from "./eval/eval-thread-view.ts";
export {
  type ExploreGate,
  type ExploreReportNode,
  type ExploreResult,
  type ExploreStep,
  type ExploreStepResult,
  exploreGateSchema,
  exploreReportNodeSchema,
  exploreResultSchema,
  exploreStepResultSchema,
  exploreStepSchema,
} from "./eval/explore-report.ts";
export { addressSchema } from "./ids/address.ts";
export { ADDRESS_ALPHABET, ADDRESS_PATTERN, type Address, normalizeAddress } from "./ids/address-pattern.ts";
export { THREAD_ID_PATTERN } from "./ids/thread-id-pattern.ts";
export { isObject } from "./json/is-object.ts";
export { findLoneSurrogate, replaceLoneSurrogates } from "./nodes/lone-surrogates.ts";
export { nodeKind } from "./nodes/node-kind.ts";
export { NODE_SCHEMAS } from "./nodes/node-kinds.ts";
export { NODE_REF_FIELDS } from "./nodes/node-ref-fields.ts";
export { listNodeRefs } from "./nodes/node-refs.ts";
export {
  type AgentAttempt,
  type AgentRunNode,
  type AgentRunOutcome,
  type AnswerNode,
  agentAttemptSchema,
  agentRunNodeSchema,
  agentRunOutcomeSchema,
  answerNodeSchema,
  type ModelUsage,
  type OutputNode,
  outputNodeSchema,
  type PermissionDenial,
  type PromptNode,
  type PromptPart,
  promptNodeSchema,
  promptPartSchema,
  type TextNode,
  type ThreadStartNode,
  type ThreadStepNode,
  type TranscriptNode,
  textNodeSchema,
  threadStartNodeSchema,
  threadStepNodeSchema,
  transcriptNodeSchema,
} from "./nodes/nodes.ts";
export {
  type CasRecoverResult,
  casHasResultSchema,
  casPutResultSchema,
  casRecoverResultSchema,
  casRefsResultSchema,
  casWalkResultSchema,
  type GcReport,
  gcReportSchema,
  type VerifyProblem,
  type VerifyReport,
  verifyProblemSchema,
  verifyReportSchema,
} from "./results/cas-results.ts";
export {
  type BranchesJoinedEvent,
  type BranchesStartedEvent,
  type BranchRef,
  branchesJoinedEventSchema,
  branchesStartedEventSchema,
  branchRefSchema,
  type CliEvent,
  cliEventSchema,
  type ScheduleFiredEvent,
  type StepFailedEvent,
  type StepFinishedEvent,
  type StepRetryEvent,
  type StepStartedEvent,
  type SuspensionTimedOutEvent,
  scheduleFiredEventSchema,
  stepFailedEventSchema,
  stepFinishedEventSchema,
  stepRetryEventSchema,
  stepStartedEventSchema,
  suspensionTimedOutEventSchema,
  THREAD_RELEASE_REASONS,
  type ThreadClaimedEvent,
  type ThreadEndedEvent,
  type ThreadFailedEvent,
  type ThreadReleasedEvent,
  type ThreadStoppedEvent,
  type ThreadSuspendedEvent,
  threadClaimedEventSchema,
  threadEndedEventSchema,
  threadFailedEventSchema,
  threadReleasedEventSchema,
  threadStoppedEventSchema,
  threadSuspendedEventSchema,
  type UiStartedEvent,
  uiStartedEventSchema,
  type WorkerStartedEvent,
  type WorkerStoppedEvent,
  workerStartedEventSchema,
  workerStoppedEventSchema,
} from "./results/cli-events.ts";
export type { ResumeResult, RunResult, ShowResult, StepThreadsResult } from "./results/command-results.ts";
export {
  type CompareParting,
  type CompareResult,
  type CompareRow,
  comparePartingSchema,
  compareResultSchema,
  compareRowSchema,
  compareSortKeySchema,
} from "./results/compare-result.ts";
export { COMPARE_SORT_KEYS, type CompareSortKey, isCompareSortKey } from "./results/compare-sort-keys.ts";
export {
  type DiffResult,
  type DiffSide,
  type DiffStep,
  type DiffStepSide,
  type DiffTotals,
  diffResultSchema,
  diffSideSchema,
  diffStepSchema,
  diffStepSideSchema,
  diffTotalsSchema,
  type FieldDifference,
  fieldDifferenceSchema,
  type WorkflowChange,
  type WorkflowSwitch,
  type WorkflowVersion,
  workflowChangeSchema,
  workflowSwitchSchema,
  workflowVersionSchema,
} from "./results/diff-result.ts";
export {
  type CompletionCandidatesResult,
  type CompletionScriptResult,
  completionCandidatesResultSchema,
  completionScriptResultSchema,
  type HelpTopicResult,
  helpTopicResultSchema,
  type VersionResult,
  versionResultSchema,
} from "./results/help-results.ts";
export {
  type ConfigListResult,
  type ConfigValueResult,
  configListResultSchema,
  configValueResultSchema,
  type InitResult,
  initResultSchema,
} from "./results/home-results.ts";
export {
  type AgentOutputResult,
  agentOutputResultSchema,
  type LiveEvent,
  liveEventSchema,
  type StepOutputEvent,
  stepOutputEventSchema,
  type ThreadUpdatedEvent,
  threadUpdatedEventSchema,
} from "./results/live-events.ts";
export {
  type ExpandedNode,
  expandedNodeSchema,
  type ShowTextResult,
  showTextResultSchema,
} from "./results/node-results.ts";
export {
  type ReplayDivergence,
  type ReplayDivergenceKind,
  type ReplayedThread,
  type ReplayNotReplayed,
  type ReplayResult,
  replayDivergenceKindSchema,
  replayDivergenceSchema,
  replayedThreadSchema,
  replayNotReplayedSchema,
  replayResultSchema,
} from "./results/replay-result.ts";
export type { SafeResult } from "./results/safe-result.ts";
export {
  type ScenarioDocument,
  type ScenarioEntry,
  type ScenarioExportResult,
  type ScenarioThread,
  scenarioDocumentSchema,
  scenarioEntrySchema,
  scenarioExportResultSchema,
  scenarioThreadSchema,
} from "./results/scenario-results.ts";
export {
  type ScheduleListResult,
  type ScheduleRemoveResult,
  type ScheduleShowResult,
  scheduleListResultSchema,
  scheduleRemoveResultSchema,
  scheduleShowResultSchema,
  type TickResult,
  tickResultSchema,
} from "./results/schedule-results.ts";
export {
  BATCH_THREAD_OUTCOMES,
  type BatchThreadOutcome,
  type BatchThreadResult,
  batchThreadOutcomeSchema,
  batchThreadResultSchema,
  type StepBatchResult,
  stepBatchResultSchema,
} from "./results/step-batch-result.ts";
export {
  type StoreCopyProblem,
  type StoreCopyReport,
  type StoreCopyResult,
  storeCopyProblemSchema,
  storeCopyReportSchema,
  storeCopyResultSchema,
} from "./results/store-copy-result.ts";
export {
  type DeleteResult,
  deleteResultSchema,
  type FailedAttempt,
  type ForkResult,
  type ForksResult,
  failedAttemptSchema,
  forkResultSchema,
  forksResultSchema,
  type LeaseHolder,
  type ListedThread,
  type ListResult,
  type LogResult,
  leaseHolderSchema,
  listedThreadSchema,
  listResultSchema,
  logResultSchema,
  type ReadResult,
  readResultSchema,
  type ShownThread,
  type StartResult,
  type StepResult,
  type StepSummary,
  shownThreadSchema,
  startResultSchema,
  stepResultSchema,
  stepSummarySchema,
} from "./results/thread-results.ts";
export {
  type TraceExportResult,
  type TraceExportThread,
  traceExportResultSchema,
  traceExportThreadSchema,
} from "./results/trace-export-result.ts";
export {
  type FamilyTreeNode,
  familyTreeNodeSchema,
  type TreeResult,
  treeResultSchema,
} from "./results/tree-result.ts";
export {
  type WaitedThread,
  type WaitResult,
  type WorkerResult,
  waitedThreadSchema,
  waitResultSchema,
  workerResultSchema,
} from "./results/worker-results.ts";
export {
  type WorkflowAddResult,
  type WorkflowListResult,
  type WorkflowNewResult,
  type WorkflowProblem,
  type WorkflowShowResult,
  type WorkflowValidateResult,
  workflowAddResultSchema,
  workflowListResultSchema,
  workflowNewResultSchema,
  workflowProblemSchema,
  workflowShowResultSchema,
  workflowValidateResultSchema,
} from "./results/workflow-results.ts";
export { type Schedule, type ScheduledBy, scheduledBySchema, scheduleSchema } from "./schedules/schedule.ts";
export { suspensionDeadline } from "./suspensions/suspension-deadline.ts";
export { type SuspensionView, suspensionViewSchema } from "./suspensions/suspension-view.ts";
export { didYouMean, suggestSimilar } from "./text/suggest-similar.ts";
export { type ThreadCounts, threadCountsSchema } from "./threads/thread-counts.ts";
export {
  type BranchOrigin,
  branchOriginSchema,
  type ExploredBy,
  exploredBySchema,
  type ForkOrigin,
  forkOriginSchema,
  type Lease,
  leaseSchema,
  type OutcomeEdge,
  outcomeEdgeSchema,
  type ThreadFailure,
  type ThreadOutcome,
  type ThreadRecord,
  type ThreadStatus,
  threadFailureSchema,
  threadIdSchema,
  threadOutcomeSchema,
  threadRecordSchema,
  threadStatusSchema,
  type WorkflowEntry,
  workflowEntrySchema,
} from "./threads/thread-record.ts";
export { THREAD_STATUSES } from "./threads/thread-statuses.ts";
export { durationSchema } from "./time/duration.ts";
export { DURATION_PATTERN, parseDuration } from "./time/parse-duration.ts";
export { type AnswerInput, answerInputSchema } from "./workflow/answer-schema.ts";
export { APPROVAL_ANSWER_SCHEMA, answerSchemaOf } from "./workflow/answer-schema-of.ts";
export {
  type BranchTarget,
  branchTargetSchema,
  type FanOut,
  fanOutSchema,
  type JoinInput,
  type JoinPolicy,
  joinInputSchema,
  joinPolicySchema,
} from "./workflow/fan-out.ts";
export {
  END,
  isObjectPrototypeName,
  NAME_PATTERN,
  RESERVED_NAMES,
  START,
  SUSPEND,
  TIMEOUT,
} from "./workflow/graph-names.ts";
export { parallelBranches } from "./workflow/parallel-branches.ts";
export { RETRY_TRIGGERS } from "./workflow/retry-triggers.ts";
export {
  type OnTimeout,
  onTimeoutSchema,
  type RetryTrigger,
  type RoleRetries,
  type RoleTimeout,
  retryTriggerSchema,
  roleRetriesSchema,
  roleTimeoutSchema,
} from "./workflow/role-policies.ts";
export {
  type Condition,
  conditionSchema,
  type EdgesInput,
  edgesInputSchema,
  type JsonSchemaObject,
  jsonSchemaObjectSchema,
  nameSchema,
  normalizeEdges,
  normalizeWorkflowFile,
  type Role,
  roleSchema,
  type StatusTargetInput,
  statusTargetInputSchema,
  type Transition,
  type TransitionInput,
  transitionInputSchema,
  transitionSchema,
  type WorkflowFile,
  type WorkflowNode,
  workflowFileSchema,
  workflowNodeSchema,
} from "./workflow/workflow.ts";
export {
  type OverlapPolicy,
  overlapPolicySchema,
  type WorkflowSchedule,
  workflowScheduleSchema,
} from "./workflow/workflow-schedule.ts";
