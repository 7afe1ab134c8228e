import { UwfError } from "@uwf/protocol";

/** saveEvalReport with an id that is already taken: ids are ULIDs, so this is a bug or a replayed command. */
export class EvalReportExistsError extends UwfError<"eval-report-exists"> {
  static override readonly code = "eval-report-exists" as const;
  static override readonly name = "EvalReportExistsError";

  constructor(id: string) {
    super(`eval report ${id} already exists`, { data: { id } });
  }
}
