import { closeSync, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";
import { messageOf } from "@uwf/protocol";
import { describeByteLimit } from "./file-limits.ts";

export interface ReadBoundedFileOptions {
  /** The most bytes the file may hold; a longer one is refused unread. */
  maxBytes: number;
  /** Also read a pipe (what `<(…)` and `/dev/stdin` name) up to `maxBytes`; devices are refused either way. */
  allowPipe?: boolean;
}

/** Why a file was not read: each reader says it in its own words and error kind, from the `problem` given. */
export type FileRefusal = "missing" | "directory" | "not-regular" | "too-large" | "unreadable";

export type ReadBoundedFileResult =
  | { success: true; value: string }
  | {
      success: false;
      reason: FileRefusal;
      /** One short clause: `no such file`, `not a regular file`, `is 2000000 bytes, over the 1 MiB limit`. */
      problem: string;
      /** The error behind `unreadable` (permissions, I/O), for callers that report it as it is. */
      cause?: unknown;
    };

/** What a read takes at a time: a pipe gives no size to allocate for. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The UTF-8 text of a file uwf is told to read, checked first: a regular file (a link to one
 * counts; a pipe only with `allowPipe`) of at most `maxBytes`. Every file uwf reads goes through
 * here, so `/dev/zero`, a FIFO nobody writes to or a 10 GB log given by mistake is one clear
 * refusal instead of a hang or a process that grows until it is killed. The size is checked on
 * the open file, and no more than `maxBytes` + 1 bytes are ever read, so a file that grows or is
 * swapped after the check cannot get past it either. Never throws.
 */
export function safeReadBoundedFile(path: string, options: ReadBoundedFileOptions): ReadBoundedFileResult {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    return refusalOf(error);
  }
  // Decided before opening: opening a device or a FIFO can itself block or have effects.
  const kind = refusedKind(stats, options);
  if (kind !== null) return kind;
  let descriptor: number;
  try {
    descriptor = openSync(path, "r");
  } catch (error) {
    return refusalOf(error);
  }
  try {
    const opened = fstatSync(descriptor);
    const openedKind = refusedKind(opened, options);
    if (openedKind !== null) return openedKind;
    if (opened.isFile() && opened.size > options.maxBytes) return tooLarge(opened.size, options.maxBytes);
    return readAtMost(descriptor, options.maxBytes);
  } catch (error) {
    return refusalOf(error);
  } finally {
    closeSync(descriptor);
  }
}

function refusedKind(stats: Stats, options: ReadBoundedFileOptions): ReadBoundedFileResult | null {
  if (stats.isFile()) return null;
  if (stats.isFIFO() && options.allowPipe === true) return null;
  if (stats.isDirectory()) return { success: false, reason: "directory", problem: "is a directory, not a file" };
  return { success: false, reason: "not-regular", problem: "not a regular file" };
}

function readAtMost(descriptor: number, maxBytes: number): ReadBoundedFileResult {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
    const count = readSync(descriptor, chunk, 0, chunk.length, null);
    if (count === 0) break;
    chunks.push(count === chunk.length ? chunk : chunk.subarray(0, count));
    total += count;
    if (total > maxBytes) return tooLarge(null, maxBytes);
  }
  return { success: true, value: Buffer.concat(chunks, total).toString("utf8") };
}

/** The refusal of a file (or stream) over `maxBytes`; `size` when it is known. */
export function tooLarge(size: number | null, maxBytes: number): ReadBoundedFileResult {
  const limit = `over the ${describeByteLimit(maxBytes)} limit`;
  return { success: false, reason: "too-large", problem: size === null ? `is ${limit}` : `is ${size} bytes, ${limit}` };
}

function refusalOf(error: unknown): ReadBoundedFileResult {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return { success: false, reason: "missing", problem: "no such file" };
  if (code === "EISDIR") return { success: false, reason: "directory", problem: "is a directory, not a file" };
  return { success: false, reason: "unreadable", problem: `cannot read the file: ${messageOf(error)}`, cause: error };
}
