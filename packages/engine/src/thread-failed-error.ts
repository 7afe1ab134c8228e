import { type ThreadRecord, UwfError } from "@uwf/protocol";

/** Stepping a thread a worker set `failed` after its retries: it waits for a resume, which tries its step again. */
export class ThreadFailedError extends UwfError {
  static readonly code = "thread-failed" as const;

  constructor(record: ThreadRecord) {
    const { id, failure } = record;
    const why =
      failure === undefined ? "" : ` after ${failure.attempts} attempt(s): ${failure.code}: ${failure.message}`;
    super(ThreadFailedError.code, `thread ${id} failed${why}`, { data: { thread: id, failure: failure ?? null } });
    this.name = "ThreadFailedError";
  }
}
