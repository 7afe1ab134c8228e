import { readFileSync, statSync, utimesSync } from "node:fs";
import { isMissingFileError } from "./is-missing-file-error.ts";

/**
 * Refreshes an existing object's write time (see ObjectStore.put), so gc's grace period counts
 * from this put, when the file holds exactly `bytes`. False when there is no such object, or when
 * the file holds anything else (a flipped bit, a truncated write): the caller then writes it, which
 * replaces a corrupt object with the right bytes, so a shared node that went bad is repaired by
 * the next step that puts it. A missing file costs one stat, as before; an existing one a read of a
 * small file besides, and one of the wrong size not even that.
 */
export function freshenObjectFile(path: string, bytes: Uint8Array, now: Date): boolean {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined || stats.size !== bytes.length) return false;
  try {
    if (!readFileSync(path).equals(bytes)) return false;
    utimesSync(path, now, now);
    return true;
  } catch (error) {
    // Deleted (by gc) since the stat: write it again.
    if (isMissingFileError(error)) return false;
    throw error;
  }
}
