import { UwfError } from "@uwf/protocol";

/** Ctrl-C at one of `uwf setup`'s questions: setup stops before it writes anything. */
export class SetupCancelledError extends UwfError {
  static readonly code = "setup-cancelled" as const;

  constructor() {
    super(SetupCancelledError.code, "setup cancelled");
    this.name = "SetupCancelledError";
  }
}
