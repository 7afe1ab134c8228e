/** Every error the CLI itself raises; the other packages' errors are in their own errors/ folders. */
export { ClaudeCodeUnavailableError } from "./claude-code-unavailable-error.ts";
export { ConfigKeyNotSetError } from "./config-key-not-set-error.ts";
export { ForksInterruptedError } from "./forks-interrupted-error.ts";
export { InputFileError } from "./input-file-error.ts";
export { ListenFailedError } from "./listen-failed-error.ts";
export { ModelAccessError } from "./model-access-error.ts";
export { NoReplyError } from "./no-reply-error.ts";
export { SetupCancelledError } from "./setup-cancelled-error.ts";
export { StdoutClosedError } from "./stdout-closed-error.ts";
export { SuiteInterruptedError } from "./suite-interrupted-error.ts";
export { TraceExportFailedError } from "./trace-export-failed-error.ts";
export { UsageError } from "./usage-error.ts";
export { WaitTimeoutError } from "./wait-timeout-error.ts";
