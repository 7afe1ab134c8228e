import { UwfError } from "@uwf/protocol";

/** createThread with an id that is already taken: ids are ULIDs, so this is a bug or a replayed command. */
export class ThreadExistsError extends UwfError<"thread-exists"> {
  static override readonly code = "thread-exists" as const;
  static override readonly name = "ThreadExistsError";

  constructor(id: string) {
    super(`thread ${id} already exists`, { data: { id } });
  }
}
