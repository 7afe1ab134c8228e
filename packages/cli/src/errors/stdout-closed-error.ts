import { UwfError } from "@uwf/protocol";

/**
 * The reader of stdout went away (`uwf read T | head`): like `git log | head`, uwf stops quietly,
 * printing nothing more, and exits 141 (128 + SIGPIPE), as a process killed by SIGPIPE would.
 */
export class StdoutClosedError extends UwfError {
  static readonly code = "stdout-closed" as const;

  constructor(cause: unknown) {
    super(StdoutClosedError.code, "stdout was closed by its reader", { cause });
    this.name = "StdoutClosedError";
  }
}
