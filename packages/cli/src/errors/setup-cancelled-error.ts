import { UwfError } from "@uwf/protocol";

/** Ctrl-C at one of `uwf setup`'s questions: setup stops before it writes anything. */
export class SetupCancelledError extends UwfError<"setup-cancelled"> {
  static override readonly code = "setup-cancelled" as const;
  static override readonly name = "SetupCancelledError";

  constructor() {
    super("setup cancelled", { data: {} });
  }
}
