import type { ErrorCode } from "@uwf/protocol";

/** The documented exit codes (DESIGN §6; docs/cli.md). */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
/** `uwf eval`: the report's gate did not hold. */
export const EXIT_GATE_FAILED = 3;
export const EXIT_ENDED = 10;
export const EXIT_SUSPENDED = 20;
export const EXIT_BUSY = 75;
/** SIGHUP: the terminal was closed (128 + 1, as a shell reports a process the signal ended). */
export const EXIT_HANGUP = 129;
/** Ctrl-C or SIGTERM. */
export const EXIT_INTERRUPTED = 130;
/** stdout's reader went away (`uwf read T | head`): 128 + SIGPIPE, as for a process SIGPIPE kills. */
export const EXIT_STDOUT_CLOSED = 141;

export type ExitCode =
  | typeof EXIT_OK
  | typeof EXIT_FAILED
  | typeof EXIT_USAGE
  | typeof EXIT_GATE_FAILED
  | typeof EXIT_ENDED
  | typeof EXIT_SUSPENDED
  | typeof EXIT_BUSY
  | typeof EXIT_HANGUP
  | typeof EXIT_INTERRUPTED
  | typeof EXIT_STDOUT_CLOSED;

/** Every error code with its exit code: a code missing here, or one uwf does not know, fails the typecheck. */
export type ExitCodeByErrorCode = Readonly<Record<ErrorCode, ExitCode>>;

/** The one place an error code becomes an exit code; docs/cli.md has the same table, with when each happens. */
export const EXIT_CODE_BY_ERROR_CODE: ExitCodeByErrorCode = {
  usage: EXIT_USAGE,
  "invalid-address": EXIT_USAGE,
  "ambiguous-thread": EXIT_USAGE,
  "ambiguous-address": EXIT_USAGE,
  "address-prefix-not-found": EXIT_USAGE,
  "invalid-inputs": EXIT_USAGE,
  "invalid-answer": EXIT_USAGE,
  "invalid-schedule": EXIT_USAGE,
  "invalid-assertion": EXIT_USAGE,
  "invalid-store-url": EXIT_USAGE,
  "input-file-unreadable": EXIT_FAILED,
  "config-key-not-set": EXIT_FAILED,
  "setup-cancelled": EXIT_FAILED,

  "thread-not-found": EXIT_FAILED,
  "node-not-found": EXIT_FAILED,
  "workflow-not-found": EXIT_FAILED,
  "not-a-workflow": EXIT_FAILED,
  "not-a-thread-node": EXIT_FAILED,
  "node-not-on-thread": EXIT_FAILED,
  "unexpected-node-kind": EXIT_FAILED,
  "broken-chain": EXIT_FAILED,
  "no-reply": EXIT_FAILED,

  "thread-ended": EXIT_ENDED,
  "thread-suspended": EXIT_SUSPENDED,
  "thread-cancelled": EXIT_FAILED,
  "thread-failed": EXIT_FAILED,
  "thread-already-ended": EXIT_FAILED,
  "not-resumable": EXIT_FAILED,
  "thread-stranded": EXIT_FAILED,
  "thread-record-behind": EXIT_FAILED,
  "branch-failed": EXIT_FAILED,
  "thread-exists": EXIT_FAILED,
  "schedule-exists": EXIT_FAILED,
  "schedule-not-found": EXIT_FAILED,
  "suspend-timeout": EXIT_FAILED,
  "eval-report-exists": EXIT_FAILED,
  "budget-exceeded": EXIT_SUSPENDED,

  "thread-busy": EXIT_BUSY,
  "cancel-pending": EXIT_BUSY,
  "head-conflict": EXIT_BUSY,
  "lease-lost": EXIT_BUSY,
  "lease-renewal-failed": EXIT_FAILED,
  "ref-store-busy": EXIT_BUSY,
  "store-unreachable": EXIT_BUSY,
  "wait-timeout": EXIT_BUSY,

  "agent-failed": EXIT_FAILED,
  "invalid-reply": EXIT_FAILED,
  "unroutable-reply": EXIT_FAILED,
  "invalid-scenario": EXIT_FAILED,
  "no-agent": EXIT_FAILED,
  "unknown-agent": EXIT_FAILED,
  "agent-unavailable": EXIT_FAILED,
  "no-working-directory": EXIT_FAILED,
  "unknown-provider": EXIT_FAILED,
  "model-access-failed": EXIT_FAILED,
  "claude-code-unavailable": EXIT_FAILED,
  "dotenv-unreadable": EXIT_FAILED,
  "path-outside-workspace": EXIT_FAILED,
  "file-refused": EXIT_FAILED,
  "mcp-server-failed": EXIT_FAILED,

  "invalid-workflow": EXIT_FAILED,
  "invalid-suite": EXIT_USAGE,
  "invalid-output-schema": EXIT_FAILED,
  "unknown-role": EXIT_FAILED,
  "no-transition": EXIT_FAILED,
  "condition-failed": EXIT_FAILED,
  "condition-timeout": EXIT_FAILED,
  "edge-prompt-failed": EXIT_FAILED,
  "fan-out-failed": EXIT_FAILED,
  "no-resume-edge": EXIT_FAILED,
  "incomplete-history": EXIT_FAILED,

  "invalid-config": EXIT_FAILED,
  "corrupt-node": EXIT_FAILED,
  "invalid-json-value": EXIT_FAILED,
  "invalid-record": EXIT_FAILED,
  "gc-refused": EXIT_FAILED,
  "ref-store-damaged": EXIT_FAILED,
  "ref-store-unavailable": EXIT_FAILED,
  "store-too-new": EXIT_FAILED,
  "store-refused": EXIT_FAILED,

  "eval-report-not-found": EXIT_FAILED,
  "ambiguous-eval-report": EXIT_USAGE,
  "nothing-to-evaluate": EXIT_USAGE,
  "eval-gate-failed": EXIT_GATE_FAILED,
  "eval-errored": EXIT_FAILED,
  "wrong-report-kind": EXIT_USAGE,

  "no-space": EXIT_FAILED,
  "read-only-file-system": EXIT_FAILED,
  "permission-denied": EXIT_FAILED,
  "io-error": EXIT_FAILED,
  "too-many-open-files": EXIT_FAILED,
  "listen-failed": EXIT_FAILED,

  interrupted: EXIT_INTERRUPTED,
  "hung-up": EXIT_HANGUP,
  "stdout-closed": EXIT_STDOUT_CLOSED,
  internal: EXIT_FAILED,

  "workflow-mismatch": EXIT_FAILED,
  "trace-export-failed": EXIT_FAILED,
  "scenario-not-exportable": EXIT_FAILED,
};

export function exitCodeForError(code: ErrorCode): ExitCode {
  // The types rule out any other code; should one come all the same, it must not exit 0.
  return EXIT_CODE_BY_ERROR_CODE[code] ?? EXIT_FAILED;
}

/**
 * A batch (`uwf step T1 T2 … --parallel K`) exits with the most severe of its threads' codes, most
 * severe first: interrupted, hung up, failed, usage, busy, suspended (or stopped by `--batch-max-cost`),
 * already ended, done. A code not listed (none is expected) counts as failed.
 */
export const BATCH_EXIT_CODE_ORDER: readonly ExitCode[] = [
  EXIT_INTERRUPTED,
  EXIT_HANGUP,
  EXIT_FAILED,
  EXIT_USAGE,
  EXIT_BUSY,
  EXIT_SUSPENDED,
  EXIT_ENDED,
  EXIT_OK,
];

/** The most severe of `codes` by BATCH_EXIT_CODE_ORDER; 0 for none. */
export function mostSevereExitCode(codes: Iterable<number>): ExitCode {
  let worst = BATCH_EXIT_CODE_ORDER.length - 1;
  for (const code of codes) {
    const rank = BATCH_EXIT_CODE_ORDER.indexOf(code as ExitCode);
    worst = Math.min(worst, rank === -1 ? BATCH_EXIT_CODE_ORDER.indexOf(EXIT_FAILED) : rank);
  }
  return BATCH_EXIT_CODE_ORDER[worst] as ExitCode;
}
