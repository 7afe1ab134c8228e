import type { Address } from "@uwf/protocol";

/** `objects/<first 2 chars>/<other 11>.json`: shards keep directories small, `.json` lets cat and jq work. */
export const SHARD_DIRECTORY = /^[0-9A-F][0-9A-HJKMNP-TV-Z]$/;
export const OBJECT_FILE = /^[0-9A-HJKMNP-TV-Z]{11}\.json$/;

/**
 * Temporary files start with a dot and never end in `.json`, so they can never be taken for
 * an object, and `list` skips them. Their names are unique per process (pid, counter) and
 * across machines sharing a directory (random suffix).
 */
export const TEMPORARY_FILE = /^\.tmp-[0-9a-z]+-[0-9a-z]+-[0-9a-z]+$/;

/** A temporary file as named to callers of listTemporaryFiles: `<shard>/<name>`. */
export const TEMPORARY_FILE_NAME = /^[0-9A-F][0-9A-HJKMNP-TV-Z]\/\.tmp-[0-9a-z]+-[0-9a-z]+-[0-9a-z]+$/;

/** The shard directory and file of an address (which the caller has already validated). */
export function objectLocation(root: string, address: Address): { directory: string; path: string } {
  const directory = `${root}/${address.slice(0, 2)}`;
  return { directory, path: `${directory}/${address.slice(2)}.json` };
}

/**
 * Where gc moves an object while it decides whether to delete it (see deleteIfWrittenBefore):
 * `<shard>/.gc-<other 11 chars>`, out of reach of puts but still read in place of the object, so
 * a gc killed while deciding leaves the node readable. Not an object file: a leftover, listed
 * with the temporary files, that a later gc puts back in place or removes.
 */
export function setAsidePath(directory: string, address: Address): string {
  return `${directory}/.gc-${address.slice(2)}`;
}

export const SET_ASIDE_FILE = /^\.gc-[0-9A-HJKMNP-TV-Z]{11}$/;

/** A set-aside file as named to callers of listTemporaryFiles: `<shard>/.gc-<other 11 chars>`. */
export const SET_ASIDE_FILE_NAME = /^[0-9A-F][0-9A-HJKMNP-TV-Z]\/\.gc-[0-9A-HJKMNP-TV-Z]{11}$/;

/**
 * How a temporary file is opened for a write without fsync: created, never an existing file (`x`:
 * O_EXCL), and appended to (`a`), because Bun's writeFile truncates a file opened for writing
 * (`w`) to its new length after writing it: one more call per object, and on ext4 one more
 * journal transaction, which waits whenever the disk is busy.
 */
export const NEW_TEMPORARY_FILE = "ax";

let temporaryCounter = 0;

export function temporaryPath(directory: string): string {
  const random = Math.floor(Math.random() * 36 ** 6).toString(36);
  temporaryCounter++;
  return `${directory}/.tmp-${process.pid.toString(36)}-${temporaryCounter.toString(36)}-${random}`;
}
