import { UwfError } from "@uwf/protocol";

/** createThread with an id that is already taken: ids are ULIDs, so this is a bug or a replayed command. */
export class ThreadExistsError extends UwfError {
  constructor(id: string) {
    super("thread-exists", `thread ${id} already exists`, { data: { id } });
    this.name = "ThreadExistsError";
  }
}
