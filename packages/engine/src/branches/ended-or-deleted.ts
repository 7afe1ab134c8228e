import { isUwfError } from "@uwf/protocol";
import { ThreadAlreadyEndedError } from "../errors/thread-already-ended-error.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";

/** Cancelling a branch failed because it ended meanwhile, or was deleted: nothing to cancel. */
export function endedOrDeleted(error: unknown): boolean {
  return isUwfError(error) && (error.code === ThreadAlreadyEndedError.code || error.code === ThreadNotFoundError.code);
}
