import { UwfError } from "@uwf/protocol";

/**
 * The reader of stdout went away (`uwf read T | head`): like `git log | head`, uwf stops quietly,
 * printing nothing more, and exits 141 (128 + SIGPIPE), as a process killed by SIGPIPE would.
 */
export class StdoutClosedError extends UwfError {
  constructor(cause: unknown) {
    super("stdout-closed", "stdout was closed by its reader", { cause });
    this.name = "StdoutClosedError";
  }
}
