import type { Database } from "bun:sqlite";
import type { EvalReportEntry } from "@uwf/protocol";
import { EvalReportExistsError } from "../errors/eval-report-exists-error.ts";
import { checkEvalReportQuery } from "../refs/check-eval-report-query.ts";
import { checkRecord } from "../refs/check-record.ts";
import { checkThreadIdQuery } from "../refs/check-thread-id-query.ts";
import type { EvalReportRefs } from "../refs/eval-report-refs.ts";

const COLUMNS = "id, address, name, created_at AS createdAt";

/** The evaluation reports' entries of a SQLite ref store (see `RefStore.saveEvalReport`): one row each. */
export function createSqliteEvalReportMethods(database: Database): EvalReportRefs {
  return {
    async saveEvalReport(entry) {
      const checked = await checkRecord("evalReportEntry", entry);
      const { changes } = database
        .query(
          "INSERT INTO eval_reports (id, address, name, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
        )
        .run(checked.id, checked.address, checked.name, checked.createdAt);
      if (changes === 0) throw new EvalReportExistsError(checked.id);
    },
    getEvalReport: async (id) =>
      database.query<EvalReportEntry, [string]>(`SELECT ${COLUMNS} FROM eval_reports WHERE id = ?`).get(id),
    async findEvalReportIds(prefix, limit) {
      const upper = checkThreadIdQuery(prefix, limit, "eval report id query");
      // A range on the primary key rather than LIKE, which could not use the index.
      return database
        .query<{ id: string }, [string, string, number]>(
          "SELECT id FROM eval_reports WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
        )
        .all(upper, `${upper}\uffff`, limit)
        .map((row) => row.id);
    },
    async listEvalReports(input) {
      const query = checkEvalReportQuery(input);
      const where = query.name === undefined ? "" : "WHERE name = ?";
      const filters = query.name === undefined ? [] : [query.name];
      const reports = database
        .query<EvalReportEntry, (string | number)[]>(
          `SELECT ${COLUMNS} FROM eval_reports ${where} ORDER BY id DESC LIMIT ? OFFSET ?`,
        )
        .all(...filters, query.limit ?? -1, query.offset ?? 0);
      const count = database
        .query<{ total: number }, string[]>(`SELECT count(*) AS total FROM eval_reports ${where}`)
        .get(...filters);
      return { reports, total: count?.total ?? 0 };
    },
    deleteEvalReport: async (id) => database.query("DELETE FROM eval_reports WHERE id = ?").run(id).changes === 1,
  };
}
