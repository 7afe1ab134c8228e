import { UwfError } from "@uwf/protocol";

/**
 * The reader of stdout went away (`uwf read T | head`): like `git log | head`, uwf stops quietly,
 * printing nothing more, and exits 141 (128 + SIGPIPE), as a process killed by SIGPIPE would.
 */
export class StdoutClosedError extends UwfError<"stdout-closed"> {
  static override readonly code = "stdout-closed" as const;
  static override readonly name = "StdoutClosedError";

  constructor(cause: unknown) {
    super("stdout was closed by its reader", { data: {}, cause });
  }
}
