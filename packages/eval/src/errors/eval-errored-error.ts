import { UwfError } from "@uwf/protocol";

/** Samples that could not be judged, or runs that never started, in a report scored without `--allow-errors`. */
export class EvalErroredError extends UwfError<"eval-errored"> {
  static override readonly code = "eval-errored" as const;
  static override readonly name = "EvalErroredError";

  constructor(report: string, errored: number, unstarted: number, first: string | null) {
    const parts = [
      errored > 0 ? `${errored} sample${errored === 1 ? "" : "s"} errored` : null,
      unstarted > 0 ? `${unstarted} run${unstarted === 1 ? "" : "s"} did not start` : null,
    ].filter((part) => part !== null);
    super(`${parts.join(" and ")}${first === null ? "" : ` (first: ${first})`}`, {
      data: { report, errored, unstarted },
    });
  }
}
