import { UwfError } from "@uwf/protocol";

/** No thread has the id or prefix given. */
export class ThreadNotFoundError extends UwfError<"thread-not-found"> {
  static override readonly code = "thread-not-found" as const;
  static override readonly name = "ThreadNotFoundError";

  constructor(reference: string) {
    super(`no thread ${JSON.stringify(reference)}`, {
      data: { thread: reference, candidates: [] },
    });
  }
}
