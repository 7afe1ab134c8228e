import { UwfError } from "@uwf/protocol";

/**
 * Ctrl-C, SIGTERM or SIGHUP while `uwf fork` made many forks: it stopped between two batches, so the
 * forks made are whole (their ids are printed, on stdout, before this). Exits 130 (129 for SIGHUP) as
 * an interrupted step does.
 */
export class ForksInterruptedError extends UwfError<"interrupted" | "hung-up"> {
  static override readonly name = "ForksInterruptedError";

  constructor(signal: string, made: number, asked: number) {
    super(
      `interrupted by ${signal} after ${made} of ${asked} forks; the ids of those made are printed, and no other fork was made`,
      { code: signal === "SIGHUP" ? "hung-up" : "interrupted", data: { signal, made, asked } },
    );
  }
}
