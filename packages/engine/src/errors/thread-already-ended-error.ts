import { UwfError } from "@uwf/protocol";

/** Cancelling a thread that has already ended: refused, and the record keeps `ended`. */
export class ThreadAlreadyEndedError extends UwfError {
  static readonly code = "thread-already-ended" as const;

  constructor(threadId: string, head: string) {
    super(
      ThreadAlreadyEndedError.code,
      `thread ${threadId} has already ended; cancel stops only an active or suspended thread, so nothing was changed`,
      { data: { thread: threadId, head } },
    );
    this.name = "ThreadAlreadyEndedError";
  }
}
