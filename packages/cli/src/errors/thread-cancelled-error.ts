import { UwfError } from "@uwf/protocol";

export class ThreadCancelledError extends UwfError {
  constructor(threadId: string) {
    super("thread-cancelled", `thread ${threadId} was cancelled and takes no more steps (fork it to continue)`, {
      data: { thread: threadId },
    });
    this.name = "ThreadCancelledError";
  }
}
