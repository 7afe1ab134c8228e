import type { EvalReportEntry } from "@uwf/protocol";
import { EvalReportExistsError } from "../errors/eval-report-exists-error.ts";
import { checkEvalReportQuery } from "../refs/check-eval-report-query.ts";
import { checkRecord } from "../refs/check-record.ts";
import { checkThreadIdQuery } from "../refs/check-thread-id-query.ts";
import type { EvalReportRefs } from "../refs/eval-report-refs.ts";
import type { PostgresConnection } from "./postgres-connection.ts";

const COLUMNS = `id, address, name, created_at AS "createdAt"`;

/** The evaluation reports' entries of a PostgreSQL ref store (see `RefStore.saveEvalReport`): one row each. */
export function createPostgresEvalReportMethods(connection: PostgresConnection, schema: string): EvalReportRefs {
  const { query } = connection;
  const evalReports = `"${schema}".eval_reports`;
  return {
    async saveEvalReport(entry) {
      const checked = await checkRecord("evalReportEntry", entry);
      const inserted = await query(
        `INSERT INTO ${evalReports} (id, address, name, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO NOTHING RETURNING 1`,
        [checked.id, checked.address, checked.name, checked.createdAt],
      );
      if (inserted.length === 0) throw new EvalReportExistsError(checked.id);
    },
    async getEvalReport(id) {
      const [row] = await query<EvalReportEntry>(`SELECT ${COLUMNS} FROM ${evalReports} WHERE id = $1`, [id]);
      return row === undefined ? null : { ...row };
    },
    async findEvalReportIds(prefix, limit) {
      const upper = checkThreadIdQuery(prefix, limit, "eval report id query");
      const rows = await query<{ id: string }>(
        `SELECT id FROM ${evalReports} WHERE id >= $1 AND id < $2 ORDER BY id LIMIT $3`,
        [upper, `${upper}\uffff`, limit],
      );
      return rows.map((row) => row.id);
    },
    async listEvalReports(input) {
      const listQuery = checkEvalReportQuery(input);
      const filters = listQuery.name === undefined ? [] : [listQuery.name];
      const where = listQuery.name === undefined ? "" : "WHERE name = $1";
      const page = `LIMIT $${filters.length + 1} OFFSET $${filters.length + 2}`;
      // LIMIT NULL is no limit.
      const rows = await query<EvalReportEntry>(
        `SELECT ${COLUMNS} FROM ${evalReports} ${where} ORDER BY id DESC ${page}`,
        [...filters, listQuery.limit ?? null, listQuery.offset ?? 0],
      );
      const [count] = await query<{ total: string | number }>(
        `SELECT count(*) AS total FROM ${evalReports} ${where}`,
        filters,
      );
      return { reports: rows.map((row) => ({ ...row })), total: Number(count?.total ?? 0) };
    },
    async deleteEvalReport(id) {
      const deleted = await query(`DELETE FROM ${evalReports} WHERE id = $1 RETURNING 1`, [id]);
      return deleted.length === 1;
    },
  };
}
