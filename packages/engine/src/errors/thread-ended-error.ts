import { UwfError } from "@uwf/protocol";

/** Stepping an ended thread: nothing to do (a resume with a prompt continues it, if its workflow allows). */
export class ThreadEndedError extends UwfError {
  static readonly code = "thread-ended" as const;

  constructor(threadId: string, head: string) {
    super(ThreadEndedError.code, `thread ${threadId} has ended; nothing to do`, {
      data: { thread: threadId, head },
    });
    this.name = "ThreadEndedError";
  }
}
