import { UwfError } from "@uwf/protocol";

/** Stepping a suspended thread: it waits for `uwf resume` (exit 20). */
export class ThreadSuspendedError extends UwfError {
  constructor(threadId: string, reason: string | null) {
    const why = reason === null ? "" : `: ${reason}`;
    super(
      "thread-suspended",
      `thread ${threadId} is suspended${why} — answer with \`uwf resume ${threadId} -p "..."\``,
      {
        data: { thread: threadId, reason },
      },
    );
    this.name = "ThreadSuspendedError";
  }
}
