import { UwfError } from "@uwf/protocol";

export class ThreadCancelledError extends UwfError {
  static readonly code = "thread-cancelled" as const;

  constructor(threadId: string) {
    super(ThreadCancelledError.code, `thread ${threadId} was cancelled and takes no more steps (fork it to continue)`, {
      data: { thread: threadId },
    });
    this.name = "ThreadCancelledError";
  }
}
