import { UwfError } from "@uwf/protocol";

/**
 * Ctrl-C, SIGTERM or SIGHUP stopped `uwf eval --suite`: no run or step was started after it, running
 * steps were interrupted (their threads unchanged), and the report of what was run is stored and printed
 * before this is reported. Exits 130 (129 for SIGHUP), as any interrupted command does.
 */
export class SuiteInterruptedError extends UwfError<"interrupted" | "hung-up"> {
  static override readonly name = "SuiteInterruptedError";

  constructor(signal: string, report: string, samples: number) {
    super(
      `interrupted by ${signal}: the suite started nothing more; report ${report} (${samples} sample(s)) is stored and printed`,
      { code: signal === "SIGHUP" ? "hung-up" : "interrupted", data: { signal, report, samples } },
    );
  }
}
