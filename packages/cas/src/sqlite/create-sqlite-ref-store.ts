import type { ThreadRecord, WorkflowEntry } from "@uwf/protocol";
import { parseAddress } from "../encoding/parse-address.ts";
import { ThreadExistsError } from "../errors/thread-exists-error.ts";
import { createSqliteLeaseMethods } from "../lease/create-sqlite-lease-methods.ts";
import { createChangeSignal } from "../refs/change-signal.ts";
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
  THREAD_PLACEHOLDERS,
  type ThreadRow,
  threadFromRow,
  threadToRowValues,
  updateAssignments,
} from "../refs/thread-rows.ts";
import { createSqliteBranchMethods } from "./create-sqlite-branch-methods.ts";
import { createSqliteChainIndexMethods } from "./create-sqlite-chain-index-methods.ts";
import { createSqliteChainLinkMethods } from "./create-sqlite-chain-link-methods.ts";
import { createSqliteEvalReportMethods } from "./create-sqlite-eval-report-methods.ts";
import { createSqliteScheduleMethods } from "./create-sqlite-schedule-methods.ts";
import { createSqliteStepOutputMethods } from "./create-sqlite-step-output-methods.ts";
import { createSqliteThreadSearchMethods } from "./create-sqlite-thread-search-methods.ts";
import { type OpenRefDatabaseOptions, openRefDatabase } from "./open-ref-database.ts";
import { prepareOnFirstUse } from "./prepare-on-first-use.ts";
import { reportRefDatabaseDamage } from "./report-ref-database-damage.ts";
import { createSqliteWriteTogether } from "./sqlite-write-together.ts";

/** How long after another connection's commit `watchChanges` checks five times as often. */
const CHANGE_BURST_MS = 2_000;

/** A ref store that owns its database connection. */
export interface SqliteRefStore extends RefStore {
  close(): Promise<void>;
}

/**
 * Thread records, the workflow registry, step leases and eval report entries in one SQLite file (see openRefDatabase).
 * A damaged file fails every call that meets the damage with RefStoreDamagedError.
 */
export function createSqliteRefStore(path: string, options: OpenRefDatabaseOptions = {}): SqliteRefStore {
  // Statements are compiled as they are first run: a command runs a few of the store's many.
  const database = prepareOnFirstUse(openRefDatabase(path, options));
  const selectThread = database.query<ThreadRow, [string]>(`SELECT ${THREAD_COLUMNS} FROM threads WHERE id = ?`);
  const insertThread = database.query(
    `INSERT INTO threads (${THREAD_COLUMNS}) VALUES (${THREAD_PLACEHOLDERS}) ON CONFLICT (id) DO NOTHING`,
  );
  // A record whose id exists rolls the whole batch back.
  const insertThreads = database.transaction((records: readonly ThreadRecord[]) => {
    for (const record of records) {
      if (insertThread.run(...threadToRowValues(record)).changes === 0) throw new ThreadExistsError(record.id);
    }
  });
  const changes = createChangeSignal();
  const watches = new Set<() => void>();
  const methods: SqliteRefStore = {
    async createThread(record) {
      const checked = await checkRecord("threadRecord", record);
      const { changes } = insertThread.run(...threadToRowValues(checked));
      if (changes === 0) throw new ThreadExistsError(checked.id);
    },
    async createThreads(records) {
      const checked = await Promise.all(records.map((record) => checkRecord("threadRecord", record)));
      insertThreads.immediate(checked);
    },
    getThread: async (id) => {
      const row = selectThread.get(id);
      return row === null ? null : threadFromRow(row);
    },
    ...createSqliteBranchMethods(database),
    ...createSqliteThreadSearchMethods(database),
    ...createSqliteStepOutputMethods(database),
    ...createSqliteWriteTogether(database, path),
    async findThreadIds(prefix, limit) {
      const upper = checkThreadIdQuery(prefix, limit);
      // A range on the primary key rather than LIKE, which could not use the index.
      return database
        .query<{ id: string }, [string, string, number]>(
          "SELECT id FROM threads WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
        )
        .all(upper, `${upper}\uffff`, limit)
        .map((row) => row.id);
    },
    async listThreads(input) {
      const query = checkListQuery(input);
      const conditions: string[] = [];
      const values: string[] = [];
      let family = "";
      if (query.forksOf !== undefined) {
        // UNION, not UNION ALL: a cycle of parents (only a damaged file could hold one) ends the walk.
        family =
          query.forksOf.recursive === true
            ? `WITH RECURSIVE family(id) AS (SELECT id FROM threads WHERE forked_from_thread = ?
                 UNION SELECT threads.id FROM threads JOIN family ON threads.forked_from_thread = family.id) `
            : "WITH family(id) AS (SELECT id FROM threads WHERE forked_from_thread = ?) ";
        values.push(query.forksOf.thread);
        conditions.push("id IN (SELECT id FROM family)");
      }
      if (query.status !== undefined) {
        conditions.push("status = ?");
        values.push(query.status);
      }
      if (query.workflow !== undefined) {
        conditions.push("workflow = ?");
        values.push(query.workflow);
      }
      if (query.outcome !== undefined) {
        conditions.push("json_extract(outcome, '$.status') = ?");
        values.push(query.outcome);
      }
      if (query.start !== undefined) {
        conditions.push("start = ?");
        values.push(query.start);
      }
      if (query.updatedSince !== undefined) {
        conditions.push("updated_at >= ?");
        values.push(query.updatedSince);
      }
      if (query.scheduledBy !== undefined) {
        // Both terms, so SQLite sees that the partial index threads_by_schedule serves it.
        conditions.push("scheduled_by IS NOT NULL AND json_extract(scheduled_by, '$.schedule') = ?");
        values.push(query.scheduledBy);
      }
      if (query.explorations === false) conditions.push("explored_by IS NULL");
      if (query.dueBy !== undefined) {
        // Both terms, so SQLite sees that the partial index threads_by_deadline serves it.
        conditions.push("deadline IS NOT NULL AND deadline <= ?");
        values.push(query.dueBy);
      }
      const where = conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
      // Left to itself, SQLite walks the whole table in id order (to skip the sort) rather than the few
      // rows the change feed (or due work) asks for: measured at 30-270 ms against under 1 ms on 100,000 threads.
      const table =
        query.dueBy !== undefined
          ? "threads INDEXED BY threads_by_deadline"
          : query.updatedSince === undefined
            ? "threads"
            : "threads INDEXED BY threads_by_update";
      const rows = database
        .query<ThreadRow, (string | number)[]>(
          `${family}SELECT ${THREAD_COLUMNS} FROM ${table} ${where} ORDER BY id DESC LIMIT ? OFFSET ?`,
        )
        .all(...values, query.limit ?? -1, query.offset ?? 0);
      const count = database
        .query<{ total: number }, string[]>(`${family}SELECT count(*) AS total FROM ${table} ${where}`)
        .get(...values);
      return { threads: rows.map(threadFromRow), total: count?.total ?? 0 };
    },
    async updateThread(id, expectedHead, update) {
      const head = parseAddress(expectedHead);
      const { assignments, values } = updateAssignments(await checkRecord("threadUpdate", update));
      // The compare-and-swap: the WHERE clause re-reads the head under SQLite's write lock.
      const sql =
        assignments.length === 0
          ? "UPDATE threads SET id = id WHERE id = ? AND head = ?"
          : `UPDATE threads SET ${assignments.join(", ")} WHERE id = ? AND head = ?`;
      return database.query(sql).run(...values, id, head).changes === 1;
    },
    listThreadRoots: async function* () {
      // Read fully before yielding, so no read transaction stays open while the caller works.
      type RootRow = {
        head: string;
        start: string;
        forkedFrom: string | null;
        forkedFromWorkflow: string | null;
        branchOf: string | null;
        workflowAddress: string;
      };
      const rows = database
        .query<RootRow, []>(
          `SELECT head, start, forked_from AS forkedFrom, forked_from_workflow AS forkedFromWorkflow,
             json_extract(branch_of, '$.address') AS branchOf, workflow_address AS workflowAddress FROM threads`,
        )
        .all();
      yield* listThreadRootsOf(
        rows.map((row) => ({
          head: row.head,
          start: row.start,
          forkedFrom:
            row.forkedFrom === null
              ? null
              : {
                  address: row.forkedFrom,
                  ...(row.forkedFromWorkflow === null ? {} : { workflow: row.forkedFromWorkflow }),
                },
          branchOf: row.branchOf === null ? null : { address: row.branchOf },
          workflowAddress: row.workflowAddress,
        })),
      );
    },
    async deleteThread(id, expectedHead, deletedAt) {
      const head = parseAddress(expectedHead);
      return database
        .transaction(() => {
          if (database.query("DELETE FROM threads WHERE id = ? AND head = ?").run(id, head).changes !== 1) return false;
          database.query("DELETE FROM chain_indexes WHERE thread_id = ?").run(id);
          database.query("DELETE FROM chain_index_details WHERE thread_id = ?").run(id);
          database.query("DELETE FROM branch_links WHERE parent = ?").run(id);
          database
            .query(
              `INSERT INTO deleted_threads (id, head, deleted_at) VALUES (?, ?, ?)
               ON CONFLICT (id) DO UPDATE SET head = excluded.head, deleted_at = excluded.deleted_at`,
            )
            .run(id, head, deletedAt.toISOString());
          return true;
        })
        .immediate();
    },
    async rememberDeletedThreads(entries) {
      const checked = checkDeletedThreads(entries);
      const insert = database.query(
        "INSERT INTO deleted_threads (id, head, deleted_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
      );
      database.transaction(() => {
        for (const entry of checked) insert.run(entry.id, entry.head, entry.deletedAt);
      })();
    },
    listDeletedThreads: async (query = {}) =>
      query.deletedSince === undefined
        ? database
            .query<DeletedThread, []>("SELECT id, head, deleted_at AS deletedAt FROM deleted_threads ORDER BY id")
            .all()
        : database
            .query<DeletedThread, [string]>(
              "SELECT id, head, deleted_at AS deletedAt FROM deleted_threads WHERE deleted_at >= ? ORDER BY id",
            )
            .all(checkSince(query.deletedSince, "deleted thread query", "deletedSince")),
    getWorkflow: async (name) =>
      database
        .query<WorkflowEntry, [string]>("SELECT name, address, updated_at AS updatedAt FROM workflows WHERE name = ?")
        .get(name),
    async setWorkflow(entry) {
      const checked = await checkRecord("workflowEntry", entry);
      database
        .query(
          `INSERT INTO workflows (name, address, updated_at) VALUES (?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET address = excluded.address, updated_at = excluded.updated_at`,
        )
        .run(checked.name, checked.address, checked.updatedAt);
    },
    clock: async () => new Date(),
    ...createSqliteScheduleMethods(database),
    listWorkflows: async () =>
      database
        .query<WorkflowEntry, []>("SELECT name, address, updated_at AS updatedAt FROM workflows ORDER BY name")
        .all(),
    ...createSqliteEvalReportMethods(database),
    ...createSqliteLeaseMethods(database),
    ...createSqliteChainLinkMethods(database),
    ...createSqliteChainIndexMethods(database),
    async watchChanges(onChange, options = {}) {
      // data_version moves when another connection (another process, or another store on the same
      // file) commits; this store's own writes are signalled by signalWrites below.
      const dataVersion = database.query<{ data_version: number }, []>("PRAGMA data_version");
      let seen = dataVersion.get()?.data_version;
      const removeOwn = changes.add(onChange);
      const pollMs = Math.max(1, options.pollMs ?? 100);
      // Writes come in bursts (a step takes its lease, then commits a few milliseconds later): for a
      // while after a change, check five times as often, so the second write does not wait a whole period.
      const burstMs = Math.max(1, Math.round(pollMs / 5));
      let busyUntil = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let stopped = false;
      const poll = () => {
        if (stopped) return;
        let version: number | undefined;
        try {
          version = dataVersion.get()?.data_version;
        } catch {
          version = seen; // a closed or damaged file: the caller's next read reports it
        }
        if (version !== seen) {
          seen = version;
          busyUntil = performance.now() + CHANGE_BURST_MS;
          onChange();
        }
        timer = setTimeout(poll, performance.now() < busyUntil ? burstMs : pollMs);
        // A watch left open does not keep a command's process alive.
        timer.unref();
      };
      timer = setTimeout(poll, pollMs);
      timer.unref();
      const stop = () => {
        stopped = true;
        clearTimeout(timer);
        removeOwn();
        watches.delete(stop);
      };
      watches.add(stop);
      return async () => stop();
    },
    close: async () => {
      for (const stop of [...watches]) stop();
      database.close();
    },
  };
  return reportRefDatabaseDamage<SqliteRefStore>(changes.signalWrites(methods), path);
}
