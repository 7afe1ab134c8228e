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
export { checkGate, describeSampleError, type GateResult } from "./gate/check-gate.ts";
export { passAtK, passAtKTable, passHatK } from "./summary/pass-at-k.ts";
export { nearestRank, summarizeDistribution } from "./summary/summarize-distribution.ts";
export { type SummarizeSamplesOptions, summarizeSamples } from "./summary/summarize-samples.ts";
export { wilsonInterval, Z_95 } from "./summary/wilson-interval.ts";
