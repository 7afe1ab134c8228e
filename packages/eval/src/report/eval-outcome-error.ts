import type { EvalResult } from "@uwf/protocol";
import { EvalErroredError } from "../errors/eval-errored-error.ts";
import { EvalGateFailedError } from "../errors/eval-gate-failed-error.ts";

/**
 * The error a shown report implies, for the exit code: errored samples or runs that never started
 * (exit 1) unless the gate allows errors, then a gate that did not hold (exit 3); none otherwise.
 */
export function evalOutcomeError(result: EvalResult): EvalErroredError | EvalGateFailedError | undefined {
  const allowErrors = result.gate?.allowErrors === true;
  const errored = result.samples.filter((sample) => sample.verdict === "errored");
  if (!allowErrors && (errored.length > 0 || result.unstarted.length > 0)) {
    const first = errored[0];
    const why =
      first === undefined
        ? (result.unstarted[0]?.error ?? null)
        : `${first.thread}: ${first.error ?? first.scores.find((score) => score.verdict === "errored")?.error ?? "errored"}`;
    return new EvalErroredError(result.report, errored.length, result.unstarted.length, why);
  }
  const failed = result.gateChecks.filter((check) => !check.held && (check.check !== "errors" || !allowErrors));
  if (failed.length > 0) return new EvalGateFailedError(result.report, failed);
  return undefined;
}
