import { Database } from "bun:sqlite";
import { existsSync, renameSync } from "node:fs";
import { RefStoreBusyError } from "../errors/ref-store-busy-error.ts";
import { RefStoreDamagedError } from "../errors/ref-store-damaged-error.ts";
import { RefStoreUnavailableError } from "../errors/ref-store-unavailable-error.ts";

/** SQLite's word for a file that is not (or no longer) a sound database. */
export function isDatabaseDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

/** SQLite's result codes that say the environment, not uwf, failed: the file cannot be opened or written. */
const UNAVAILABLE = /^SQLITE_(CANTOPEN|READONLY|FULL|IOERR|PERM)/;

/**
 * SQLite's errors as the ref store's, naming the file: damage (RefStoreDamagedError), a write lock
 * held past the busy timeout (RefStoreBusyError), a file that cannot be opened or written
 * (RefStoreUnavailableError). Any other error as it is.
 */
export function asRefStoreError(error: unknown, path: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !code.startsWith("SQLITE_")) return error;
  const detail = (error as Error).message;
  if (isDatabaseDamage(error)) return new RefStoreDamagedError(path, detail, error);
  if (/^SQLITE_(BUSY|LOCKED)/.test(code)) return new RefStoreBusyError(path, detail, error);
  if (UNAVAILABLE.test(code)) return new RefStoreUnavailableError(path, code, detail, error);
  return error;
}

/**
 * What is wrong with the ref database at `path`, or null when it is sound or absent: it is
 * opened and checked whole (`PRAGMA quick_check`, which reads every page). For `uwf cas recover`,
 * which must know before it trusts the file; other commands learn of damage when they touch it.
 */
export function findRefDatabaseDamage(path: string): string | null {
  if (!existsSync(path)) return null;
  let database: Database | undefined;
  try {
    database = new Database(path, { readwrite: true, strict: true });
    const rows = database.query<{ quick_check: string }, []>("PRAGMA quick_check").all();
    const problems = rows.map((row) => row.quick_check).filter((result) => result !== "ok");
    return problems.length === 0 ? null : problems.slice(0, 3).join("; ");
  } catch (error) {
    if (isDatabaseDamage(error)) return (error as Error).message;
    throw asRefStoreError(error, path);
  } finally {
    database?.close();
  }
}

/**
 * Moves a damaged ref database, and its WAL and shared-memory files, aside to
 * `<path>.damaged-<time>` (plus `-wal`, `-shm`), so the next open starts an empty one and the
 * damaged file is kept for inspection, never overwritten. Returns the new path of the database.
 */
export function setAsideRefDatabase(path: string, now: Date): string {
  const aside = `${path}.damaged-${now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")}`;
  if (existsSync(aside)) throw new RefStoreDamagedError(path, `${aside} exists already; move it away first`);
  for (const suffix of ["-wal", "-shm", ""]) {
    if (existsSync(`${path}${suffix}`)) renameSync(`${path}${suffix}`, `${aside}${suffix}`);
  }
  return aside;
}
