import { UwfError } from "@uwf/protocol";

/** Bad arguments or flags: the command line itself is wrong. */
export class UsageError extends UwfError {
  constructor(message: string, data: Record<string, unknown> = {}) {
    super("usage", message, { data });
    this.name = "UsageError";
  }
}
