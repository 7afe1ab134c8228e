import { UwfError } from "@uwf/protocol";

/** Stepping an ended thread: nothing to do (exit 10). */
export class ThreadEndedError extends UwfError {
  static readonly code = "thread-ended" as const;

  constructor(threadId: string, head: string) {
    super(
      ThreadEndedError.code,
      `thread ${threadId} has ended; nothing to do (\`uwf resume\` continues it if its workflow allows)`,
      {
        data: { thread: threadId, head },
      },
    );
    this.name = "ThreadEndedError";
  }
}
