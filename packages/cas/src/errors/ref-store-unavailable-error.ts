import { UwfError } from "@uwf/protocol";

/**
 * The ref store's file cannot be opened or written for a reason outside uwf: a read-only file
 * system, a full disk, missing permissions, an I/O error. `sqliteCode` is SQLite's extended result
 * code (`SQLITE_READONLY`, `SQLITE_FULL`, `SQLITE_CANTOPEN`, ...).
 */
export class RefStoreUnavailableError extends UwfError<"ref-store-unavailable"> {
  static override readonly code = "ref-store-unavailable" as const;
  static override readonly name = "RefStoreUnavailableError";

  constructor(path: string, sqliteCode: string, detail: string, cause?: unknown) {
    const what = sqliteCode.startsWith("SQLITE_CANTOPEN") ? "cannot be opened" : "cannot be written";
    const hint = HINTS.find(([prefix]) => sqliteCode.startsWith(prefix))?.[1] ?? "";
    super(`the ref store ${path} ${what}: ${detail} (${sqliteCode})${hint}`, {
      data: { path, sqliteCode, detail },
      cause,
    });
  }
}

const HINTS: ReadonlyArray<readonly [string, string]> = [
  ["SQLITE_CANTOPEN", "; its folder must exist and be writable, on a writable file system"],
  ["SQLITE_READONLY", "; the file, its folder or the file system is read-only"],
  ["SQLITE_FULL", "; free some space"],
  ["SQLITE_IOERR", "; is the disk full or failing?"],
];
