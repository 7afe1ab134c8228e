// The errors @uwf/eval raises (see docs/architecture.md, Errors).
export { InvalidSuiteError } from "./invalid-suite-error.ts";
export { SuiteNotQueueableError } from "./suite-not-queueable-error.ts";
