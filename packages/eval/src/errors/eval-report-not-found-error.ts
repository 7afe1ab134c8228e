import { UwfError } from "@uwf/protocol";

/** No stored evaluation report has the id or prefix given. */
export class EvalReportNotFoundError extends UwfError<"eval-report-not-found"> {
  static override readonly code = "eval-report-not-found" as const;
  static override readonly name = "EvalReportNotFoundError";

  constructor(reference: string) {
    super(`no evaluation report ${JSON.stringify(reference)}`, { data: { report: reference } });
  }
}
