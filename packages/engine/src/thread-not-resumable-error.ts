import { type ThreadStatus, UwfError } from "@uwf/protocol";

/** `uwf resume` on an active thread: only a suspended or ended thread takes an answer. */
export class ThreadNotResumableError extends UwfError {
  static readonly code = "not-resumable" as const;

  constructor(threadId: string, status: ThreadStatus) {
    super(
      ThreadNotResumableError.code,
      `thread ${threadId} is active, not suspended or ended: use \`uwf step ${threadId}\``,
      { data: { thread: threadId, status } },
    );
    this.name = "ThreadNotResumableError";
  }
}
