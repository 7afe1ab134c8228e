// The errors @uwf/eval raises (see docs/architecture.md, Errors).
export { type InvalidAssertionDetails, InvalidAssertionError } from "./invalid-assertion-error.ts";
export { InvalidSuiteError } from "./invalid-suite-error.ts";
export { SuiteNotQueueableError } from "./suite-not-queueable-error.ts";
export { VariantNotFoundError } from "./variant-not-found-error.ts";
