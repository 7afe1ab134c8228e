import { type ThreadStatus, UwfError } from "@uwf/protocol";

/** A resume of an active thread: only a suspended or ended thread takes an answer; an active one is stepped. */
export class ThreadNotResumableError extends UwfError<"not-resumable"> {
  static override readonly code = "not-resumable" as const;
  static override readonly name = "ThreadNotResumableError";

  constructor(threadId: string, status: ThreadStatus) {
    super(`thread ${threadId} is active, not suspended or ended`, {
      data: { thread: threadId, status },
    });
  }
}
