import { UwfError } from "@uwf/protocol";

/** A replacement reply (`uwf fork --output FILE`) whose fields fit the schema but lead to no edge: nothing is written. */
export class UnroutableReplyError extends UwfError {
  static readonly code = "unroutable-reply" as const;

  constructor(file: string, role: string, problem: string) {
    super(UnroutableReplyError.code, `${file}: the reply cannot be routed: ${problem}; nothing was written`, {
      data: { file, role, problem },
    });
    this.name = "UnroutableReplyError";
  }
}
