import { UwfError } from "@uwf/protocol";

/** Stepping an ended thread: nothing to do (a resume with a prompt continues it, if its workflow allows). */
export class ThreadEndedError extends UwfError<"thread-ended"> {
  static override readonly code = "thread-ended" as const;
  static override readonly name = "ThreadEndedError";

  constructor(threadId: string, head: string) {
    super(`thread ${threadId} has ended; nothing to do`, {
      data: { thread: threadId, head },
    });
  }
}
