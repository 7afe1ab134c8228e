import { type ThreadRecord, UwfError } from "@uwf/protocol";

/** A thread set `failed` after its step kept failing (reported by `log --follow`): the next step or resume tries it again. */
export class ThreadFailedError extends UwfError<"thread-failed"> {
  static override readonly code = "thread-failed" as const;
  static override readonly name = "ThreadFailedError";

  constructor(record: ThreadRecord) {
    const { id, failure } = record;
    const why =
      failure === undefined ? "" : ` after ${failure.attempts} attempt(s): ${failure.code}: ${failure.message}`;
    super(`thread ${id} failed${why}`, { data: { thread: id, failure: failure ?? null } });
  }
}
