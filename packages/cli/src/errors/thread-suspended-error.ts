import { UwfError } from "@uwf/protocol";

/** Stepping a suspended thread: it waits for `uwf resume` (exit 20). */
export class ThreadSuspendedError extends UwfError {
  static readonly code = "thread-suspended" as const;

  constructor(threadId: string, reason: string | null) {
    const why = reason === null ? "" : `: ${reason}`;
    super(
      ThreadSuspendedError.code,
      `thread ${threadId} is suspended${why} — answer with \`uwf resume ${threadId} -p "..."\``,
      {
        data: { thread: threadId, reason },
      },
    );
    this.name = "ThreadSuspendedError";
  }
}
