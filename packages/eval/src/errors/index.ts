// The errors @uwf/eval raises (see docs/architecture.md, Errors).
export { AmbiguousEvalReportError } from "./ambiguous-eval-report-error.ts";
export { EvalErroredError } from "./eval-errored-error.ts";
export { EvalGateFailedError } from "./eval-gate-failed-error.ts";
export { EvalReportNotFoundError } from "./eval-report-not-found-error.ts";
export { type InvalidAssertionDetails, InvalidAssertionError } from "./invalid-assertion-error.ts";
export { InvalidSuiteError } from "./invalid-suite-error.ts";
export { NothingToEvaluateError } from "./nothing-to-evaluate-error.ts";
export { SuiteNotQueueableError } from "./suite-not-queueable-error.ts";
export { VariantNotFoundError } from "./variant-not-found-error.ts";
export { WrongReportKindError } from "./wrong-report-kind-error.ts";
