import { UwfError } from "./uwf-error.ts";

/**
 * A fault of uwf itself (a bug, to be reported), not of its input or its machine: a store asked to
 * delete a file that is not its own, a schema of a kind the code does not handle. The CLI reports it
 * as it reports any error it did not expect: `internal error (please report)`, with the stack.
 */
export class InternalError extends UwfError<"internal"> {
  static override readonly code = "internal" as const;
  static override readonly name = "InternalError";

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { data: {}, cause: options.cause });
  }
}
