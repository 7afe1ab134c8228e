import { existsSync, linkSync, renameSync, statSync, unlinkSync } from "node:fs";
import { isMissingFileError } from "./is-missing-file-error.ts";

/**
 * The file store's deleteIfWrittenBefore, for the object file at `path` and its set-aside name
 * (object-file-layout.ts). The object is moved out of reach of puts first: a put that refreshed it
 * before the rename shows in the write time read after it, and one after it finds no object and
 * writes the node again. A set-aside file with no object beside it (left by a gc killed while
 * deciding, or being decided by another gc) is decided on in its place. True when it was deleted.
 *
 * Every step tolerates the file vanishing under it: two gc runs may decide on the same node at
 * once, and whichever acts second finds the work done.
 */
export function deleteObjectFileIfWrittenBefore(path: string, setAside: string, cutoff: number): boolean {
  try {
    renameSync(path, setAside);
  } catch (error) {
    if (!isMissingFileError(error)) throw error;
  }
  const writtenAt = statSync(setAside, { throwIfNoEntry: false })?.mtimeMs;
  if (writtenAt === undefined) return false;
  if (writtenAt >= cutoff) {
    restoreSetAsideFile(setAside, path);
    return false;
  }
  unlinkIfPresent(setAside);
  // A put that found no object file meanwhile wrote the node again: it is not gone.
  return !existsSync(path);
}

/**
 * Puts a set-aside file back as the object file, unless an object file exists (a put wrote the node
 * again), and removes the set-aside name either way. A hard link creates the object file only if
 * it is absent, so a fresh put is never replaced by an older copy; where hard links are not
 * supported, a rename does it when no object file is seen.
 */
export function restoreSetAsideFile(setAside: string, path: string): void {
  try {
    linkSync(setAside, path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (isMissingFileError(error)) return; // restored or deleted by another gc meanwhile
    if (code !== "EEXIST") {
      if (!existsSync(path)) renameQuietly(setAside, path);
      return;
    }
  }
  unlinkIfPresent(setAside);
}

function renameQuietly(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if (!isMissingFileError(error)) throw error;
  }
}

export function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!isMissingFileError(error)) throw error;
  }
}
