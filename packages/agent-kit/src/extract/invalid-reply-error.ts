import { UwfError } from "@uwf/protocol";

/** An agent reply whose frontmatter is missing or does not match the role's schema. Keeps the raw reply. */
export class InvalidReplyError extends UwfError {
  /** The reply as received; not in `data`, which stays small enough to print. */
  readonly reply: string;

  constructor(problem: string, reply: string) {
    super("invalid-reply", `invalid reply: ${problem}`, { data: { problem } });
    this.name = "InvalidReplyError";
    this.reply = reply;
  }
}
