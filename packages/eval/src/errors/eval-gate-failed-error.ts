import type { EvalGateCheck } from "@uwf/protocol";
import { UwfError } from "@uwf/protocol";

/** A report whose gate did not hold: the checks that failed, the worst offender of each in its message. */
export class EvalGateFailedError extends UwfError<"eval-gate-failed"> {
  static override readonly code = "eval-gate-failed" as const;
  static override readonly name = "EvalGateFailedError";

  constructor(report: string, failed: readonly EvalGateCheck[]) {
    super(`the gate did not hold: ${failed.map((check) => check.detail).join("; ")}`, {
      data: { report, failed: failed.map((check) => check.check) },
    });
  }
}
