// The @uwf/eval entry: scoring threads, suites, reports and their rendering (see README.md). Above
// @uwf/engine, below @uwf/cli; it prints nothing and exits nothing.

export {
  type ComparisonLabels,
  type ComparisonSide,
  compareReports,
  compareSummaries,
  compareVariants,
  comparisonSide,
} from "./compare/compare-summaries.ts";
export { VariantNotFoundError } from "./errors/variant-not-found-error.ts";
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
export type { Cell, ReportTable, Tone } from "./render/report-table.ts";
export { passAtK, passAtKTable, passHatK } from "./summary/pass-at-k.ts";
export { nearestRank, summarizeDistribution } from "./summary/summarize-distribution.ts";
export { type SummarizeSamplesOptions, summarizeSamples } from "./summary/summarize-samples.ts";
export { wilsonInterval, Z_95 } from "./summary/wilson-interval.ts";
