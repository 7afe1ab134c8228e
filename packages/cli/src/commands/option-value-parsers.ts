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
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError("expected a positive whole number");
  return number;
}

/** `--offset 0`, `--grace 0`, `--limit 0`. */
export function parseNonNegativeInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError("expected a whole number ≥ 0");
  return number;
}

/** `--timeout 1.5`. */
export function parsePositiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError("expected a positive number");
  return number;
}

/** A repeatable option's values, in the order given. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
