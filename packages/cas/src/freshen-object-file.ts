import { existsSync, utimesSync } from "node:fs";
import { isMissingFileError } from "./is-missing-file-error.ts";

/**
 * Refreshes an existing object's write time (see ObjectStore.put), so gc's grace period
 * counts from this put; false when there is no such object, which must then be written.
 */
export function freshenObjectFile(path: string, now: Date): boolean {
  if (!existsSync(path)) return false;
  try {
    utimesSync(path, now, now);
    return true;
  } catch (error) {
    // Deleted (by gc) between the two calls: write it again.
    if (isMissingFileError(error)) return false;
    throw error;
  }
}
