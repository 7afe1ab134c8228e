/**
 * A value an option's parser refuses. commander reports any error with this code as its own
 * InvalidArgumentError (the flag named, exit 1); a local class, so the command table does not load
 * commander, which a plain command line does without (see parsePlainCommand).
 */
class InvalidArgumentError extends Error {
  readonly code = "commander.invalidArgument";
  readonly exitCode = 1;
}

/** `-n 3`, `--limit 30`. */
export function parsePositiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1) throw new InvalidArgumentError("expected a positive whole number");
  return number;
}

/** `--offset 0`, `--grace 0`, `--limit 0`: exact whole numbers only (`1e20` is not one a number holds exactly). */
export function parseNonNegativeInteger(value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0) throw new InvalidArgumentError("expected a whole number ≥ 0");
  return number;
}

/** The longest `uwf cas gc --grace`: a century, so the cutoff it sets is still a date. */
export const MAX_GC_GRACE_SECONDS = 100 * 365 * 24 * 3600;

/** `uwf cas gc --grace 600`: seconds from 0 to MAX_GC_GRACE_SECONDS. */
export function parseGcGraceSeconds(value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0 || number > MAX_GC_GRACE_SECONDS) {
    throw new InvalidArgumentError(`expected a whole number of seconds from 0 to ${MAX_GC_GRACE_SECONDS} (100 years)`);
  }
  return number;
}

/** `--timeout 1.5`. */
export function parsePositiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError("expected a positive number");
  return number;
}

/** `--timeout 1.5`: seconds, at least 0.001 (a millisecond, the finest a timer keeps); more decimals are not rounded away. */
export function parseTimeoutSeconds(value: string): number {
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number) || number < 0.001) {
    throw new InvalidArgumentError("expected a number of seconds of at least 0.001 (1 ms)");
  }
  return number;
}

/** A repeatable option's values, in the order given. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--min-pass-rate 0.8`: a rate from 0 to 1. */
export function parseRate(value: string): number {
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number) || number < 0 || number > 1) {
    throw new InvalidArgumentError("expected a rate from 0 to 1, such as 0.8");
  }
  return number;
}

/** `--at`: an ISO 8601 time with its zone (`2027-11-07T05:30:00Z`, `…+01:00`), as UTC (`toISOString`). */
export function parseIsoTime(value: string): string {
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(value)
    ? new Date(value)
    : null;
  if (time === null || Number.isNaN(time.getTime())) {
    throw new InvalidArgumentError(
      `expected an ISO 8601 time with its zone (2027-11-07T05:30:00Z), got ${JSON.stringify(value)}`,
    );
  }
  return time.toISOString();
}
