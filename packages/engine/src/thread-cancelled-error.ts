import { UwfError } from "@uwf/protocol";

/** Stepping a cancelled thread: it takes no more steps, but can be read and forked. */
export class ThreadCancelledError extends UwfError {
  static readonly code = "thread-cancelled" as const;

  constructor(threadId: string) {
    super(ThreadCancelledError.code, `thread ${threadId} was cancelled and takes no more steps`, {
      data: { thread: threadId },
    });
    this.name = "ThreadCancelledError";
  }
}
