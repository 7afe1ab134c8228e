// The @uwf/eval entry: scoring threads, suites, reports and their rendering (see README.md). Above
// @uwf/engine, below @uwf/cli; it prints nothing and exits nothing.

export {
  checkUniqueAssertionNames,
  compileAssertionExpression,
  normalizeSuiteAssertion,
  parseAssertionArgument,
  parseAssertionArguments,
} from "./assertions/parse-assertion.ts";
export {
  type ComparisonLabels,
  type ComparisonSide,
  compareReports,
  compareSummaries,
  compareVariants,
  comparisonSide,
} from "./compare/compare-summaries.ts";
export { mapConcurrently } from "./concurrency/map-concurrently.ts";
export {
  AmbiguousEvalReportError,
  EvalErroredError,
  EvalGateFailedError,
  EvalReportNotFoundError,
  type InvalidAssertionDetails,
  InvalidAssertionError,
  InvalidSuiteError,
  NothingToEvaluateError,
  SuiteNotQueueableError,
  VariantNotFoundError,
  WrongReportKindError,
} from "./errors/index.ts";
export type { EvaluateOptions } from "./evaluate/evaluate-options.ts";
export { evaluateSelection } from "./evaluate/evaluate-selection.ts";
export { type EvaluateSuiteOptions, evaluateSuite, suiteRunsDir } from "./evaluate/evaluate-suite.ts";
export { rescoreEvalReport } from "./evaluate/rescore-eval-report.ts";
export { buildExploreResult } from "./explore/build-explore-result.ts";
export {
  type ExploreThreadOptions,
  type ExploreThreadOutcome,
  exploreThread,
  type StoredExploreReport,
} from "./explore/explore-thread.ts";
export {
  type ExplorationPoint,
  type ExplorationTarget,
  readExplorationTarget,
} from "./explore/read-exploration-target.ts";
export { rescoreExploreReport } from "./explore/rescore-explore-report.ts";
export { resolveExploreReport } from "./explore/resolve-explore-report.ts";
export {
  EXPLORATION_BUDGET_REACHED,
  EXPLORATION_INTERRUPTED,
  type ExplorationRun,
  type ExplorationRunResult,
  type RunExplorationOptions,
  runExploration,
} from "./explore/run-exploration.ts";
export { describeGroup } from "./format/describe-group.ts";
export { describeSampleError } from "./format/describe-sample-error.ts";
export {
  formatCost,
  formatCount,
  formatDelta,
  formatDuration,
  formatInterval,
  formatRate,
  formatRateWithInterval,
  formatValue,
  MISSING,
} from "./format/format-number.ts";
export { checkGate, type GateResult } from "./gate/check-gate.ts";
export {
  type BuildReportTablesOptions,
  buildComparisonTables,
  buildReportTables,
  describeComparison,
  describeSampleFailure,
} from "./render/build-report-tables.ts";
export { describeMetric, formatMetricDelta, judgeDelta } from "./render/describe-metric.ts";
export { renderEvalHtml } from "./render/render-eval-html.ts";
export { escapeMarkdown, renderEvalMarkdown, renderMarkdownTable } from "./render/render-eval-markdown.ts";
export {
  describeSource,
  type RenderEvalTableOptions,
  renderEvalDiff,
  renderEvalList,
  renderEvalTable,
} from "./render/render-eval-table.ts";
export { renderExploreHtml } from "./render/render-explore-html.ts";
export { renderExploreTable } from "./render/render-explore-table.ts";
export type { Cell, ReportTable, Tone } from "./render/report-table.ts";
export { buildEvalResult, type EvalBaseline } from "./report/build-eval-result.ts";
export { diffEvalReports } from "./report/diff-eval-reports.ts";
export { evalOutcomeError } from "./report/eval-outcome-error.ts";
export { listEvalReports } from "./report/list-eval-reports.ts";
export { findEvalReportEntry, resolveEvalReport, type StoredEvalReport } from "./report/resolve-eval-report.ts";
export { saveEvalReport } from "./report/save-eval-report.ts";
export { type RunSuiteOptions, runSuite } from "./run/run-suite.ts";
export {
  SUITE_BUDGET_REACHED,
  SUITE_INTERRUPTED,
  type SuiteRun,
  type SuiteRunKey,
  type SuiteRunResult,
  type SuiteRunStarted,
} from "./run/suite-run.ts";
export { variantConfig } from "./run/variant-config.ts";
export type { AssertionResult } from "./score/assertion-result.ts";
export { JUDGE_BODY_QUOTA, renderJudgeTranscript } from "./score/render-judge-transcript.ts";
export {
  DEFAULT_COMMAND_TIMEOUT_SECONDS,
  parseScorerReply,
  type ScoreCommandOptions,
  scoreCommand,
} from "./score/score-command.ts";
export { type CompiledExpression, compileExpression, DEFAULT_EXPRESSION_TIMEOUT_MS } from "./score/score-jsonata.ts";
export {
  DEFAULT_JUDGE_PROMPT,
  type JudgeContext,
  type PreparedJudge,
  prepareJudge,
  scoreJudge,
} from "./score/score-judge.ts";
export { scoreOutcome, scoreStatus } from "./score/score-outcome.ts";
export {
  assertionsNeedBodies,
  DEFAULT_SCORING_CONCURRENCY,
  type ScoreThreadsOptions,
  scoreThreads,
  toSample,
} from "./score/score-threads.ts";
export { selectThreads, type ThreadSelection } from "./select/select-threads.ts";
export { loadSuite, parseSuiteSource } from "./suite/load-suite.ts";
export type { Suite, SuiteAssertionItem, SuiteCase, SuiteVariant } from "./suite/suite.ts";
export { passAtK, passAtKTable, passHatK } from "./summary/pass-at-k.ts";
export { nearestRank, summarizeDistribution } from "./summary/summarize-distribution.ts";
export { type SummarizeSamplesOptions, summarizeSamples } from "./summary/summarize-samples.ts";
export { wilsonInterval, Z_95 } from "./summary/wilson-interval.ts";
export { type LoadThreadViewsOptions, loadThreadViews, type ThreadViewTarget } from "./view/load-thread-view.ts";
