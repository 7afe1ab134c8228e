import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RefStoreBusyError } from "../errors/ref-store-busy-error.ts";
import { RefStoreDamagedError } from "../errors/ref-store-damaged-error.ts";
import { RefStoreUnavailableError } from "../errors/ref-store-unavailable-error.ts";
import { sampleThreadRecord } from "../testing/sample-nodes.ts";
import { createSqliteRefStore } from "./create-sqlite-ref-store.ts";
import { asRefStoreError } from "./ref-database-damage.ts";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "uwf-ref-errors-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** An error as bun:sqlite throws it. */
function sqliteError(code: string, message: string): Error {
  return Object.assign(new Error(message), { name: "SQLiteError", code, errno: 1 });
}

describe("asRefStoreError", () => {
  it("names the file of a ref store whose write lock another process holds past the busy timeout", async () => {
    const path = join(folder, "refs.db");
    const refs = createSqliteRefStore(path, { busyTimeoutMs: 50 });
    const holder = new Database(path, { strict: true });
    holder.run("BEGIN IMMEDIATE");
    try {
      const error = await refs.createThread(sampleThreadRecord()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RefStoreBusyError);
      expect((error as RefStoreBusyError).code).toBe("ref-store-busy");
      expect((error as RefStoreBusyError).message).toStartWith(`the ref store ${path} is busy`);
    } finally {
      holder.run("ROLLBACK");
      holder.close();
      await refs.close();
    }
  });

  it("says a ref store that cannot be opened cannot be opened, naming the file", () => {
    const path = join(folder, "missing-folder", "refs.db");
    let error: unknown;
    try {
      createSqliteRefStore(path);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RefStoreUnavailableError);
    expect((error as RefStoreUnavailableError).code).toBe("ref-store-unavailable");
    expect((error as RefStoreUnavailableError).message).toStartWith(`the ref store ${path} cannot be opened:`);
    expect((error as RefStoreUnavailableError).data.sqliteCode).toBe("SQLITE_CANTOPEN");
  });

  it("maps a full disk, a read-only file and I/O errors, and keeps SQLite's error as the cause", () => {
    for (const code of ["SQLITE_FULL", "SQLITE_READONLY", "SQLITE_READONLY_DBMOVED", "SQLITE_IOERR_WRITE"]) {
      const cause = sqliteError(code, "it failed");
      const error = asRefStoreError(cause, "/h/refs.db") as RefStoreUnavailableError;
      expect(error).toBeInstanceOf(RefStoreUnavailableError);
      expect(error.message).toStartWith(`the ref store /h/refs.db cannot be written: it failed (${code})`);
      expect(error.cause).toBe(cause);
    }
    expect(asRefStoreError(sqliteError("SQLITE_LOCKED", "locked"), "/h/refs.db")).toBeInstanceOf(RefStoreBusyError);
    expect(asRefStoreError(sqliteError("SQLITE_CORRUPT", "malformed"), "/h/refs.db")).toBeInstanceOf(
      RefStoreDamagedError,
    );
  });

  it("passes every other error as it is: a constraint, a bug", () => {
    const constraint = sqliteError("SQLITE_CONSTRAINT_UNIQUE", "UNIQUE constraint failed");
    expect(asRefStoreError(constraint, "/h/refs.db")).toBe(constraint);
    const bug = new TypeError("x is undefined");
    expect(asRefStoreError(bug, "/h/refs.db")).toBe(bug);
  });
});
