// The @uwf/eval entry: scoring threads, suites, reports and their rendering (see README.md). Above
// @uwf/engine, below @uwf/cli; it prints nothing and exits nothing.
export { InvalidSuiteError, SuiteNotQueueableError } from "./errors/index.ts";
export {
  type RunSuiteOptions,
  runSuite,
  SUITE_BUDGET_REACHED,
  SUITE_INTERRUPTED,
  type SuiteRun,
  type SuiteRunKey,
  type SuiteRunResult,
  type SuiteRunStarted,
} from "./run/run-suite.ts";
export { variantConfig } from "./run/variant-config.ts";
export { loadSuite, parseSuiteSource } from "./suite/load-suite.ts";
export type { Suite, SuiteAssertionItem, SuiteCase, SuiteVariant } from "./suite/suite.ts";
