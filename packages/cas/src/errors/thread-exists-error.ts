import { UwfError } from "@uwf/protocol";

/** createThread with an id that is already taken: ids are ULIDs, so this is a bug or a replayed command. */
export class ThreadExistsError extends UwfError {
  static readonly code = "thread-exists" as const;

  constructor(id: string) {
    super(ThreadExistsError.code, `thread ${id} already exists`, { data: { id } });
    this.name = "ThreadExistsError";
  }
}
