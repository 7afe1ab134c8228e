import { ambiguousPrefixMessage, UwfError } from "@uwf/protocol";

/** A report prefix that more than one stored report starts with: the caller must say which. */
export class AmbiguousEvalReportError extends UwfError<"ambiguous-eval-report"> {
  static override readonly code = "ambiguous-eval-report" as const;
  static override readonly name = "AmbiguousEvalReportError";

  constructor(reference: string, candidates: string[]) {
    super(ambiguousPrefixMessage("report", reference, candidates), { data: { report: reference, candidates } });
  }
}
