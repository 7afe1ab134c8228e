import { mkdirSync } from "node:fs";
import { rename, unlink, writeFile } from "node:fs/promises";
import { forEachConcurrently } from "./for-each-concurrently.ts";
import { freshenObjectFile } from "./freshen-object-file.ts";
import { isMissingFileError } from "./is-missing-file-error.ts";
import { NEW_TEMPORARY_FILE, temporaryPath } from "./object-file-layout.ts";
import type { ObjectFileWrite } from "./write-object-files.ts";

/**
 * Puts object files without durability, with up to `concurrency` files in flight; for each,
 * what createFileObjectStore does one at a time: an existing file holding the right bytes only
 * has its write time refreshed; a new one, or one whose content went bad, is written to a
 * temporary file in its directory and renamed into place, so it is never visible half-written.
 *
 * Bun runs node:fs/promises calls on its thread pool, so on 2 cores the writes and renames of
 * many files overlap each other and the existence checks. Those stay synchronous: a check is one
 * cheap read of a small file, and as a promise it would cost a round trip to the pool (about 50 µs
 * when not overlapped). Writes pay two such round trips, so for a few files the synchronous
 * loop is faster (see CONCURRENT_BATCH_MINIMUM in create-file-object-store.ts).
 *
 * A file that fails removes its own temporary file; after a failure no new file is started,
 * and the first error is thrown once the files in flight have settled, so no temporary file
 * is left behind. Shard directories must exist; one that vanished since (removed by hand) is
 * recreated, once per file.
 */
export async function putObjectFilesConcurrently(
  objects: readonly ObjectFileWrite[],
  concurrency: number,
): Promise<void> {
  const now = new Date();
  await forEachConcurrently(objects, concurrency, async (object) => {
    if (freshenObjectFile(object.path, object.bytes, now)) return;
    try {
      await writeThroughTemporaryFile(object);
    } catch (error) {
      if (!isMissingFileError(error)) throw error;
      mkdirSync(object.directory, { recursive: true });
      await writeThroughTemporaryFile(object);
    }
  });
}

async function writeThroughTemporaryFile(object: ObjectFileWrite): Promise<void> {
  const temporary = temporaryPath(object.directory);
  try {
    await writeFile(temporary, object.bytes, { flag: NEW_TEMPORARY_FILE });
    await rename(temporary, object.path);
  } catch (error) {
    // A name taken (EEXIST) is another writer's file. Otherwise not created, or gone with its
    // directory; if even this fails (a failing disk), gc removes it.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") await unlink(temporary).catch(() => {});
    throw error;
  }
}
