/** Plain-JSON detail attached to an error; printed under `--json`. */
export type UwfErrorData = Record<string, unknown>;

export interface UwfErrorOptions {
  data?: UwfErrorData;
  cause?: unknown;
}

/**
 * The one base class of every error uwf reports on purpose. `code` is stable
 * (scripts match on it) and maps to exactly one exit code in the CLI.
 */
export class UwfError extends Error {
  readonly code: string;
  readonly data: UwfErrorData;

  constructor(code: string, message: string, options: UwfErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "UwfError";
    this.code = code;
    this.data = options.data ?? {};
  }

  toJSON(): { code: string; message: string; data: UwfErrorData } {
    return { code: this.code, message: this.message, data: this.data };
  }
}

export function isUwfError(value: unknown): value is UwfError {
  return value instanceof UwfError;
}
