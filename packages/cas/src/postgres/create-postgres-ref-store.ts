import { InternalError, type WorkflowEntry } from "@uwf/protocol";
import { parseAddress } from "../encoding/parse-address.ts";
import { ThreadExistsError } from "../errors/thread-exists-error.ts";
import { createPostgresLeaseMethods } from "../lease/create-postgres-lease-methods.ts";
import { checkDeletedThreads } from "../refs/check-deleted-threads.ts";
import { checkListQuery } from "../refs/check-list-query.ts";
import { checkRecord } from "../refs/check-record.ts";
import { checkSince } from "../refs/check-since.ts";
import { checkThreadIdQuery } from "../refs/check-thread-id-query.ts";
import { listThreadRootsOf } from "../refs/list-thread-roots-of.ts";
import type { RefStore } from "../refs/ref-store.ts";
import type { DeletedThread } from "../refs/thread-refs.ts";
import {
  THREAD_COLUMNS,
  THREAD_NUMBERED_PLACEHOLDERS,
  type ThreadRow,
  threadFromRow,
  threadToRowValues,
  updateAssignments,
} from "../refs/thread-rows.ts";
import { createPostgresBranchMethods } from "./create-postgres-branch-methods.ts";
import { createPostgresChainIndexMethods } from "./create-postgres-chain-index-methods.ts";
import { createPostgresChainLinkMethods } from "./create-postgres-chain-link-methods.ts";
import { createPostgresEvalReportMethods } from "./create-postgres-eval-report-methods.ts";
import { createPostgresScheduleMethods } from "./create-postgres-schedule-methods.ts";
import { createPostgresSearchAndOutputMethods } from "./create-postgres-search-and-output-methods.ts";
import type { PostgresConnection } from "./postgres-connection.ts";
import { POSTGRES_CHANGE_CHANNEL } from "./postgres-migrations.ts";

/**
 * Thread records, the workflow registry, step leases, eval report entries and the chain caches in the
 * store's schema, with the SQLite ref store's columns. Every change is one statement or one transaction, so a
 * concurrent reader sees a thread before or after an update, never half of it; the head's
 * compare-and-swap is the UPDATE's WHERE clause, which PostgreSQL re-checks on the row it locks.
 */
export function createPostgresRefStore(connection: PostgresConnection, schema: string): RefStore {
  const { query } = connection;
  const threads = `"${schema}".threads`;
  const workflows = `"${schema}".workflows`;
  return {
    async createThread(record) {
      const checked = await checkRecord("threadRecord", record);
      const inserted = await query(
        `INSERT INTO ${threads} (${THREAD_COLUMNS}) VALUES (${THREAD_NUMBERED_PLACEHOLDERS})
         ON CONFLICT (id) DO NOTHING RETURNING 1`,
        threadToRowValues(checked),
      );
      if (inserted.length === 0) throw new ThreadExistsError(checked.id);
    },
    async createThreads(records) {
      const checked = await Promise.all(records.map((record) => checkRecord("threadRecord", record)));
      // One transaction: a record whose id exists rolls the whole batch back.
      await connection.transaction(async (transaction) => {
        for (const record of checked) {
          const inserted = await transaction(
            `INSERT INTO ${threads} (${THREAD_COLUMNS}) VALUES (${THREAD_NUMBERED_PLACEHOLDERS})
             ON CONFLICT (id) DO NOTHING RETURNING 1`,
            threadToRowValues(record),
          );
          if (inserted.length === 0) throw new ThreadExistsError(record.id);
        }
      });
    },
    async getThread(id) {
      const [row] = await query<ThreadRow>(`SELECT ${THREAD_COLUMNS} FROM ${threads} WHERE id = $1`, [id]);
      return row === undefined ? null : threadFromRow(row);
    },
    ...createPostgresBranchMethods(connection, schema),
    ...createPostgresSearchAndOutputMethods(connection, schema),
    async findThreadIds(prefix, limit) {
      const upper = checkThreadIdQuery(prefix, limit);
      const rows = await query<{ id: string }>(
        `SELECT id FROM ${threads} WHERE id >= $1 AND id < $2 ORDER BY id LIMIT $3`,
        [upper, `${upper}\uffff`, limit],
      );
      return rows.map((row) => row.id);
    },
    async listThreads(input) {
      const listQuery = checkListQuery(input);
      const conditions: string[] = [];
      const values: unknown[] = [];
      const parameter = (value: unknown) => {
        values.push(value);
        return `$${values.length}`;
      };
      let family = "";
      if (listQuery.forksOf !== undefined) {
        const parent = parameter(listQuery.forksOf.thread);
        // UNION, not UNION ALL: a cycle of parents (only a damaged store could hold one) ends the walk.
        family =
          listQuery.forksOf.recursive === true
            ? `WITH RECURSIVE family(id) AS (SELECT id FROM ${threads} WHERE forked_from_thread = ${parent}
               UNION SELECT child.id FROM ${threads} AS child JOIN family ON child.forked_from_thread = family.id) `
            : `WITH family(id) AS (SELECT id FROM ${threads} WHERE forked_from_thread = ${parent}) `;
        conditions.push("id IN (SELECT id FROM family)");
      }
      if (listQuery.status !== undefined) conditions.push(`status = ${parameter(listQuery.status)}`);
      if (listQuery.workflow !== undefined) conditions.push(`workflow = ${parameter(listQuery.workflow)}`);
      if (listQuery.outcome !== undefined)
        conditions.push(`(outcome::jsonb ->> 'status') = ${parameter(listQuery.outcome)}`);
      if (listQuery.start !== undefined) conditions.push(`start = ${parameter(listQuery.start)}`);
      if (listQuery.updatedSince !== undefined)
        conditions.push(`(updated_at COLLATE "C") >= ${parameter(listQuery.updatedSince)}`);
      if (listQuery.scheduledBy !== undefined)
        // Both terms, as the partial index threads_by_schedule is written.
        conditions.push(
          `scheduled_by IS NOT NULL AND (scheduled_by::jsonb ->> 'schedule') = ${parameter(listQuery.scheduledBy)}`,
        );
      if (listQuery.explorations === false) conditions.push("explored_by IS NULL");
      if (listQuery.dueBy !== undefined)
        // Both terms, as the partial index threads_by_deadline is written.
        conditions.push(`deadline IS NOT NULL AND deadline <= ${parameter(listQuery.dueBy)}`);
      const where = conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
      const filters = [...values];
      // LIMIT NULL is no limit.
      const page = `LIMIT ${parameter(listQuery.limit ?? null)} OFFSET ${parameter(listQuery.offset ?? 0)}`;
      // One after the other, on one connection: a second would cost a CLI command more than it saves.
      const rows = await query<ThreadRow>(
        `${family}SELECT ${THREAD_COLUMNS} FROM ${threads} ${where} ORDER BY id DESC ${page}`,
        values,
      );
      const [count] = await query<{ total: string | number }>(
        `${family}SELECT count(*) AS total FROM ${threads} ${where}`,
        filters,
      );
      return { threads: rows.map(threadFromRow), total: Number(count?.total ?? 0) };
    },
    async updateThread(id, expectedHead, update) {
      const head = parseAddress(expectedHead);
      const checked = await checkRecord("threadUpdate", update);
      const { assignments, values } = updateAssignments(checked, (position) => `$${position}`);
      const set = assignments.length === 0 ? "id = id" : assignments.join(", ");
      const updated = await query(
        `UPDATE ${threads} SET ${set} WHERE id = $${values.length + 1} AND head = $${values.length + 2} RETURNING 1`,
        [...values, id, head],
      );
      return updated.length === 1;
    },
    listThreadRoots: async function* () {
      type RootRow = {
        head: string;
        start: string;
        forked_from: string | null;
        forked_from_workflow: string | null;
        branch_of: string | null;
        workflow_address: string;
      };
      const rows = await query<RootRow>(
        `SELECT head, start, forked_from, forked_from_workflow, (branch_of::jsonb ->> 'address') AS branch_of,
           workflow_address FROM ${threads}`,
      );
      yield* listThreadRootsOf(
        rows.map((row) => ({
          head: row.head,
          start: row.start,
          forkedFrom:
            row.forked_from === null
              ? null
              : {
                  address: row.forked_from,
                  ...(row.forked_from_workflow === null ? {} : { workflow: row.forked_from_workflow }),
                },
          branchOf: row.branch_of === null ? null : { address: row.branch_of },
          workflowAddress: row.workflow_address,
        })),
      );
    },
    async deleteThread(id, expectedHead, deletedAt) {
      const head = parseAddress(expectedHead);
      return connection.transaction(async (inTransaction) => {
        const deleted = await inTransaction(`DELETE FROM ${threads} WHERE id = $1 AND head = $2 RETURNING 1`, [
          id,
          head,
        ]);
        if (deleted.length !== 1) return false;
        await inTransaction(`DELETE FROM "${schema}".chain_indexes WHERE thread_id = $1`, [id]);
        await inTransaction(`DELETE FROM "${schema}".chain_index_details WHERE thread_id = $1`, [id]);
        await inTransaction(`DELETE FROM "${schema}".branch_links WHERE parent = $1`, [id]);
        await inTransaction(
          `INSERT INTO "${schema}".deleted_threads (id, head, deleted_at) VALUES ($1, $2, $3)
           ON CONFLICT (id) DO UPDATE SET head = excluded.head, deleted_at = excluded.deleted_at`,
          [id, head, deletedAt.toISOString()],
        );
        return true;
      });
    },
    async rememberDeletedThreads(entries) {
      const checked = checkDeletedThreads(entries);
      if (checked.length === 0) return;
      await connection.transaction(async (inTransaction) => {
        for (const entry of checked) {
          await inTransaction(
            `INSERT INTO "${schema}".deleted_threads (id, head, deleted_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`,
            [entry.id, entry.head, entry.deletedAt],
          );
        }
      });
    },
    async listDeletedThreads(deletedQuery = {}) {
      const since = deletedQuery.deletedSince;
      const rows = await query<DeletedThread>(
        since === undefined
          ? `SELECT id, head, deleted_at AS "deletedAt" FROM "${schema}".deleted_threads ORDER BY id`
          : `SELECT id, head, deleted_at AS "deletedAt" FROM "${schema}".deleted_threads
             WHERE (deleted_at COLLATE "C") >= $1 ORDER BY id`,
        since === undefined ? [] : [checkSince(since, "deleted thread query", "deletedSince")],
      );
      return rows.map((row) => ({ ...row }));
    },
    async getWorkflow(name) {
      const [row] = await query<WorkflowEntry>(
        `SELECT name, address, updated_at AS "updatedAt" FROM ${workflows} WHERE name = $1`,
        [name],
      );
      return row === undefined ? null : { ...row };
    },
    async setWorkflow(entry) {
      const checked = await checkRecord("workflowEntry", entry);
      await query(
        `INSERT INTO ${workflows} (name, address, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET address = excluded.address, updated_at = excluded.updated_at`,
        [checked.name, checked.address, checked.updatedAt],
      );
    },
    async clock() {
      const [row] = await query<{ now: string }>(
        `SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS now`,
      );
      if (row === undefined) throw new InternalError("PostgreSQL returned no time");
      return new Date(row.now);
    },
    ...createPostgresScheduleMethods(connection, schema),
    async listWorkflows() {
      const rows = await query<WorkflowEntry>(
        `SELECT name, address, updated_at AS "updatedAt" FROM ${workflows} ORDER BY name`,
      );
      return rows.map((row) => ({ ...row }));
    },
    ...createPostgresEvalReportMethods(connection, schema),
    ...createPostgresLeaseMethods(connection, schema),
    ...createPostgresChainLinkMethods(connection, schema),
    ...createPostgresChainIndexMethods(connection, schema),
    async watchChanges(onChange) {
      // Every process's writes, this one's included, reach the listener through the tables' triggers
      // (see POSTGRES_CHANGE_CHANNEL); a reconnection may have missed some, so it counts as a change.
      let listening = false;
      return connection.listen(
        POSTGRES_CHANGE_CHANNEL,
        (payload) => {
          if (payload === schema) onChange();
        },
        () => {
          if (listening) onChange();
          listening = true;
        },
      );
    },
  };
}
