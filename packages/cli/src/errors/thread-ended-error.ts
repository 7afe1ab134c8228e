import { UwfError } from "@uwf/protocol";

/** Stepping an ended thread: nothing to do (exit 10). */
export class ThreadEndedError extends UwfError {
  constructor(threadId: string, head: string) {
    super(
      "thread-ended",
      `thread ${threadId} has ended; nothing to do (\`uwf resume\` continues it if its workflow allows)`,
      {
        data: { thread: threadId, head },
      },
    );
    this.name = "ThreadEndedError";
  }
}
