import type { ErrorCode, ErrorDataByCode } from "./error-code.ts";

/** Plain-JSON detail attached to an error; printed under `--json`. */
export type UwfErrorData = Record<string, unknown>;

export interface UwfErrorOptions<C extends ErrorCode = ErrorCode> {
  /** The error's detail, of the type its code registers (ErrorDataByCode). */
  data: ErrorDataByCode[C];
  cause?: unknown;
  /** For a class that raises more than one code (a signal's, a machine's refusal): which one. Others take their static `code`. */
  code?: C;
}

/** An error as `--json` prints it. */
export interface UwfErrorJson {
  code: ErrorCode;
  message: string;
  data: UwfErrorData;
}

/** A UwfError of any code, told apart by its code: `error.code === "thread-busy"` gives `error.data` that code's type. */
export type AnyUwfError = { [C in ErrorCode]: UwfError<C> }[ErrorCode];

/** The brand every UwfError carries on its prototype: two copies of this package see each other's errors. */
const UWF_ERROR = Symbol.for("uwf.error");

/**
 * The one base class of every error uwf reports on purpose. `code` is stable (scripts match on it)
 * and maps to exactly one exit code in the CLI. Abstract, so that every error is a named class that
 * declares its code (`static readonly code`) and its name (`static override readonly name`, which
 * survives minifying) once, and builds its message in one place; `data` has the type its code
 * registers in ErrorDataByCode.
 */
export abstract class UwfError<C extends ErrorCode = ErrorCode> extends Error {
  /** The code of the subclass's errors: a subclass that declares one that is no ErrorCode fails the typecheck. */
  declare static readonly code?: ErrorCode;
  readonly code: C;
  readonly data: ErrorDataByCode[C];

  constructor(message: string, options: UwfErrorOptions<C>) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const type = new.target as unknown as { readonly code?: C; readonly name: string };
    const code = options.code ?? type.code;
    if (code === undefined) throw new TypeError(`${type.name} has no static code and was given none`);
    this.name = type.name;
    this.code = code;
    this.data = options.data;
  }

  toJSON(): UwfErrorJson {
    return { code: this.code, message: this.message, data: this.data };
  }

  /**
   * Whether `value` is a UwfError, by the brand on its prototype rather than `instanceof`: an error
   * from another copy of uwf's packages (two versions in one install, a bundled binary and a plugin)
   * is one too. An object with the same fields is not.
   */
  static isInstance(value: unknown): value is AnyUwfError {
    return typeof value === "object" && value !== null && (value as { [UWF_ERROR]?: unknown })[UWF_ERROR] === true;
  }
}

Object.defineProperty(UwfError.prototype, UWF_ERROR, { value: true });

/** The same check as UwfError.isInstance. */
export function isUwfError(value: unknown): value is AnyUwfError {
  return UwfError.isInstance(value);
}
