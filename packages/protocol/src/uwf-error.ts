import type { ErrorCode } from "./error-code.ts";

/** Plain-JSON detail attached to an error; printed under `--json`. */
export type UwfErrorData = Record<string, unknown>;

export interface UwfErrorOptions {
  data?: UwfErrorData;
  cause?: unknown;
}

/** An error as `--json` prints it. */
export interface UwfErrorJson {
  code: ErrorCode;
  message: string;
  data: UwfErrorData;
}

/**
 * The one base class of every error uwf reports on purpose. `code` is stable (scripts match on it)
 * and maps to exactly one exit code in the CLI. Abstract, so that every error is a named class that
 * declares its code once (`static readonly code`) and builds its message in one place.
 */
export abstract class UwfError extends Error {
  readonly code: ErrorCode;
  readonly data: UwfErrorData;

  constructor(code: ErrorCode, message: string, options: UwfErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "UwfError";
    this.code = code;
    this.data = options.data ?? {};
  }

  toJSON(): UwfErrorJson {
    return { code: this.code, message: this.message, data: this.data };
  }
}

export function isUwfError(value: unknown): value is UwfError {
  return value instanceof UwfError;
}
