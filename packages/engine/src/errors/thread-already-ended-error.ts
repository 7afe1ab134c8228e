import { UwfError } from "@uwf/protocol";

/** Cancelling a thread that has already ended: refused, and the record keeps `ended`. */
export class ThreadAlreadyEndedError extends UwfError<"thread-already-ended"> {
  static override readonly code = "thread-already-ended" as const;
  static override readonly name = "ThreadAlreadyEndedError";

  constructor(threadId: string, head: string) {
    super(
      `thread ${threadId} has already ended; cancel stops only an active or suspended thread, so nothing was changed`,
      { data: { thread: threadId, head } },
    );
  }
}
