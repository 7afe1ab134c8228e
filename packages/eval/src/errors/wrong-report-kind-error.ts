import { UwfError } from "@uwf/protocol";

const COMMAND_OF: Readonly<Record<string, string>> = {
  "eval-report/1": "uwf eval show",
  "explore-report/1": "uwf explore show",
};

/** A stored report of the other kind: an evaluation given to `explore show`, an exploration to `eval show`. */
export class WrongReportKindError extends UwfError<"wrong-report-kind"> {
  static override readonly code = "wrong-report-kind" as const;
  static override readonly name = "WrongReportKindError";

  constructor(report: string, kind: string, expected: string) {
    const what = kind === "explore-report/1" ? "an exploration" : kind === "eval-report/1" ? "an evaluation" : kind;
    const instead = COMMAND_OF[kind];
    super(
      `report ${report} is ${what} (${kind}), not a ${expected}${instead === undefined ? "" : `: use \`${instead} ${report}\``}`,
      { data: { report, kind, expected } },
    );
  }
}
