import { UwfError } from "@uwf/protocol";

/** No thread has the id or prefix given. */
export class ThreadNotFoundError extends UwfError {
  static readonly code = "thread-not-found" as const;

  constructor(reference: string) {
    super(ThreadNotFoundError.code, `no thread "${reference}"`, {
      data: { thread: reference, candidates: [] },
    });
    this.name = "ThreadNotFoundError";
  }
}
