import type { Database } from "bun:sqlite";
import { RefStoreUnavailableError } from "../errors/ref-store-unavailable-error.ts";
import type { WriteTogether } from "../refs/write-together.ts";

/**
 * `writeTogether` on one SQLite connection: `work` runs inside BEGIN IMMEDIATE … COMMIT, and the
 * methods it calls, whose own transactions become savepoints, commit with it. The methods are
 * synchronous under their promises, so nothing else in the process writes on the connection meanwhile.
 * A write SQLite answered by rolling the whole transaction back (a full disk, an I/O error) that `work`
 * caught fails the batch instead of committing what was left of it.
 */
export function createSqliteWriteTogether(database: Database, path: string): Required<WriteTogether> {
  return {
    async writeTogether(work) {
      if (database.inTransaction) return work();
      database.run("BEGIN IMMEDIATE");
      try {
        const result = await work();
        if (!database.inTransaction) {
          throw new RefStoreUnavailableError(path, "SQLITE_ABORT", "a write failed and SQLite rolled the batch back");
        }
        database.run("COMMIT");
        return result;
      } catch (error) {
        if (database.inTransaction) database.run("ROLLBACK");
        throw error;
      }
    },
  };
}
