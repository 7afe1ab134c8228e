import { EXIT_HANGUP, EXIT_INTERRUPTED } from "../../exit-codes.ts";

/** Signals that stop a command cleanly: the agent's process group is stopped and the lease released. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** The second stop signal, for a command that asked for it (`context.secondSignal()`). */
export interface SecondSignal {
  claimed: boolean;
  controller: AbortController;
}

/**
 * The first stop signal aborts the command's signal, so a running agent is stopped and the thread left
 * as it was (InterruptedError: exit 130, or 129 for SIGHUP, the terminal closing); a second one exits at
 * once, unless the command claimed it (a draining worker), when it aborts that signal and a third exits.
 */
export function installSignalHandlers(abort: AbortController, second: SecondSignal): { remove(): void } {
  const onSignal = (signal: NodeJS.Signals) => {
    if (abort.signal.aborted && second.claimed && !second.controller.signal.aborted) {
      second.controller.abort(signal);
      return;
    }
    if (abort.signal.aborted) process.exit(signal === "SIGHUP" ? EXIT_HANGUP : EXIT_INTERRUPTED);
    abort.abort(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return {
    remove() {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    },
  };
}
