import { UwfError } from "@uwf/protocol";

/**
 * Ctrl-C, SIGTERM or SIGHUP (the terminal closed) during a step: the agent was stopped and the
 * thread left as it was. SIGHUP has a code of its own, so that it exits 129 like a process the
 * signal ended; the others exit 130.
 */
export class InterruptedError extends UwfError<"interrupted" | "hung-up"> {
  static override readonly code = "interrupted" as const;
  static override readonly name = "InterruptedError";
  static readonly hangUpCode = "hung-up" as const;

  constructor(signal: string, run: string | null) {
    const kept = run === null ? "" : `; what the agent had written is kept in run ${run}`;
    super(`interrupted by ${signal}; the thread is unchanged${kept}`, {
      code: signal === "SIGHUP" ? InterruptedError.hangUpCode : InterruptedError.code,
      data: { signal, run },
    });
  }
}
