/**
 * A time limit or delay for a message, in seconds: `30 s`, `1.5 s`, `0.7 s`. Error messages and
 * warnings name limits the way a user sets them; the CLI's tables use `formatDuration` instead.
 */
export function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1_000;
  return Number.isInteger(seconds) ? `${seconds} s` : `${seconds.toFixed(1)} s`;
}
