/** The documented exit codes (DESIGN §6). */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_ENDED = 10;
export const EXIT_SUSPENDED = 20;
export const EXIT_BUSY = 75;
export const EXIT_INTERRUPTED = 130;

const EXIT_CODE_BY_ERROR_CODE: Readonly<Record<string, number>> = {
  usage: EXIT_USAGE,
  "invalid-address": EXIT_USAGE,
  "ambiguous-thread": EXIT_USAGE,
  "invalid-inputs": EXIT_USAGE,
  "thread-ended": EXIT_ENDED,
  "thread-suspended": EXIT_SUSPENDED,
  "thread-busy": EXIT_BUSY,
  "head-conflict": EXIT_BUSY,
  interrupted: EXIT_INTERRUPTED,
};

/** The one place an error code becomes an exit code; anything unlisted is a failure. */
export function exitCodeForError(code: string): number {
  return EXIT_CODE_BY_ERROR_CODE[code] ?? EXIT_FAILED;
}
