import { UwfError } from "@uwf/protocol";

/**
 * `uwf resume --answer` refused before anything ran: the answer is no YAML or JSON object, the suspended
 * role's `answer:` schema refuses it (`field` names where, null for the whole answer), or the resume
 * brought the wrong kind of answer (`--answer` to a role that takes text, `-p` or nothing to one that
 * declares `answer:`). The thread stays suspended and nothing is recorded.
 */
export class InvalidAnswerError extends UwfError<"invalid-answer"> {
  static override readonly code = "invalid-answer" as const;
  static override readonly name = "InvalidAnswerError";

  constructor(thread: string, role: string, field: string | null, problem: string) {
    super(`thread ${thread}: the answer to role ${role} is refused: ${problem}`, {
      data: { thread, role, field, problem },
    });
  }
}
