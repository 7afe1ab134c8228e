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
    // A thread that waits for no answer has no role to name: the problem says where it stands.
    const to = role.startsWith("$") || role === "(none)" ? "the answer" : `the answer to role ${role}`;
    super(`thread ${thread}: ${to} is refused: ${problem}`, {
      data: { thread, role, field, problem },
    });
  }
}
