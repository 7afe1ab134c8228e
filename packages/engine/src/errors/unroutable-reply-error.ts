import { UwfError } from "@uwf/protocol";

/** A replacement reply (`uwf fork --output FILE`) whose fields fit the schema but lead to no edge: nothing is written. */
export class UnroutableReplyError extends UwfError<"unroutable-reply"> {
  static override readonly code = "unroutable-reply" as const;
  static override readonly name = "UnroutableReplyError";

  constructor(file: string, role: string, problem: string) {
    super(`${file}: the reply cannot be routed: ${problem}; nothing was written`, {
      data: { file, role, problem },
    });
  }
}
