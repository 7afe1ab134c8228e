import { UwfError } from "@uwf/protocol";

/** Bad arguments or flags: the command line itself is wrong. */
export class UsageError extends UwfError {
  static readonly code = "usage" as const;

  constructor(message: string, data: Record<string, unknown> = {}) {
    super(UsageError.code, message, { data });
    this.name = "UsageError";
  }
}
