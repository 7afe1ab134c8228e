import { type ThreadStatus, UwfError } from "@uwf/protocol";

/** A resume of an active thread: only a suspended or ended thread takes an answer; an active one is stepped. */
export class ThreadNotResumableError extends UwfError {
  static readonly code = "not-resumable" as const;

  constructor(threadId: string, status: ThreadStatus) {
    super(ThreadNotResumableError.code, `thread ${threadId} is active, not suspended or ended`, {
      data: { thread: threadId, status },
    });
    this.name = "ThreadNotResumableError";
  }
}
