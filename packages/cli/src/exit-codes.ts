/** The documented exit codes (DESIGN §6). */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_ENDED = 10;
export const EXIT_SUSPENDED = 20;
export const EXIT_BUSY = 75;
/** SIGHUP: the terminal was closed (128 + 1, as a shell reports a process the signal ended). */
export const EXIT_HANGUP = 129;
/** Ctrl-C or SIGTERM. */
export const EXIT_INTERRUPTED = 130;
/** stdout's reader went away (`uwf read T | head`): 128 + SIGPIPE, as for a process SIGPIPE kills. */
export const EXIT_STDOUT_CLOSED = 141;

const EXIT_CODE_BY_ERROR_CODE: Readonly<Record<string, number>> = {
  usage: EXIT_USAGE,
  "invalid-address": EXIT_USAGE,
  "ambiguous-thread": EXIT_USAGE,
  "invalid-inputs": EXIT_USAGE,
  "thread-ended": EXIT_ENDED,
  "thread-suspended": EXIT_SUSPENDED,
  "thread-busy": EXIT_BUSY,
  "head-conflict": EXIT_BUSY,
  "lease-lost": EXIT_BUSY,
  "ref-store-busy": EXIT_BUSY,
  interrupted: EXIT_INTERRUPTED,
  "hung-up": EXIT_HANGUP,
  "stdout-closed": EXIT_STDOUT_CLOSED,
};

/** The one place an error code becomes an exit code; anything unlisted is a failure. */
export function exitCodeForError(code: string): number {
  return EXIT_CODE_BY_ERROR_CODE[code] ?? EXIT_FAILED;
}
