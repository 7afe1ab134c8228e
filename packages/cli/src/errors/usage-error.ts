import { type CommandLineData, UwfError } from "@uwf/protocol";

/** Bad arguments or flags: the command line itself is wrong. */
export class UsageError extends UwfError<"usage"> {
  static override readonly code = "usage" as const;
  static override readonly name = "UsageError";

  constructor(message: string, data: CommandLineData = {}) {
    super(message, { data });
  }
}
