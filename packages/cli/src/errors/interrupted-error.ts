import { UwfError } from "@uwf/protocol";

/** Ctrl-C or SIGTERM during a step: the agent was stopped and the thread left as it was. */
export class InterruptedError extends UwfError {
  constructor(signal: string, run: string | null) {
    const kept = run === null ? "" : `; what the agent had written is kept in run ${run}`;
    super("interrupted", `interrupted by ${signal}; the thread is unchanged${kept}`, { data: { signal, run } });
    this.name = "InterruptedError";
  }
}
