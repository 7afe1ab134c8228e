import { UwfError } from "@uwf/protocol";

/** `uwf wait --timeout S` ran out while some threads were still active (exit 75: waiting longer can help). */
export class WaitTimeoutError extends UwfError<"wait-timeout"> {
  static override readonly code = "wait-timeout" as const;
  static override readonly name = "WaitTimeoutError";

  constructor(timeoutSeconds: number, active: readonly string[]) {
    const threads = active.length === 1 ? `thread ${active[0]} is` : `threads ${active.join(", ")} are`;
    super(`waited ${timeoutSeconds} s and ${threads} still active`, {
      data: { timeoutSeconds, threads: [...active] },
    });
  }
}
