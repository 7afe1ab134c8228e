import { UwfError } from "@uwf/protocol";

/** A reply read from a file instead of an agent (`uwf fork --output FILE`), and the role it answers for. */
export interface ReplyFile {
  file: string;
  role: string;
}

/**
 * A reply whose frontmatter is missing or does not match the role's schema. Keeps the raw reply, and
 * the problem as a sentence to send back to the agent. A reply from a file is named by the file.
 */
export class InvalidReplyError extends UwfError<"invalid-reply"> {
  static override readonly code = "invalid-reply" as const;
  static override readonly name = "InvalidReplyError";

  /** What is wrong with the reply, addressed to whoever wrote it. */
  readonly problem: string;
  /** The reply as received; not in `data`, which stays small enough to print. */
  readonly reply: string;

  constructor(problem: string, reply: string, from?: ReplyFile) {
    super(from === undefined ? `invalid reply: ${problem}` : `${from.file}: ${problem}`, {
      data: from === undefined ? { problem } : { file: from.file, role: from.role, problem },
    });
    this.problem = problem;
    this.reply = reply;
  }
}
