import { StoreTooNewError } from "../errors/store-too-new-error.ts";
import type { PostgresConnection, PostgresQuery } from "./postgres-connection.ts";
import { sqlStateOf } from "./sql-state-of.ts";

/** Bumped with every schema change; `migratePostgresStore` migrates older schemas step by step. */
export const POSTGRES_SCHEMA_VERSION = 14;

/** The channel a store's triggers notify (the payload: the schema's name), and `watchChanges` listens on. */
export const POSTGRES_CHANGE_CHANNEL = "uwf_changes";

/**
 * Each entry turns schema version `index` into `index + 1`: statements run in order, `{schema}`
 * replaced by the store's quoted schema name. Identifiers and addresses compare byte-wise (`C`), so
 * prefix ranges and id order are the same whatever the database's collation. Times are epoch
 * milliseconds, compared in SQL atomically with what they decide (lease takeover, gc's deletes).
 */
const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE {schema}.objects (
      address text COLLATE "C" PRIMARY KEY,
      bytes bytea NOT NULL,
      written_at bigint NOT NULL
    )`,
    `CREATE TABLE {schema}.threads (
      id text COLLATE "C" PRIMARY KEY,
      workflow text NOT NULL,
      workflow_address text NOT NULL,
      start text COLLATE "C" NOT NULL,
      head text COLLATE "C" NOT NULL,
      status text NOT NULL,
      next text,
      reason text,
      step_count integer NOT NULL,
      created_at text NOT NULL,
      updated_at text NOT NULL,
      forked_from text,
      usage text NOT NULL,
      failed_usage text,
      recovered_from text,
      budget text,
      forked_from_thread text COLLATE "C",
      forked_from_step integer,
      forked_from_replaced integer,
      queued integer,
      failure text
    )`,
    // list filters walk these newest first (ids are ULIDs, so id order is time order).
    "CREATE INDEX threads_by_status ON {schema}.threads (status, id)",
    "CREATE INDEX threads_by_workflow ON {schema}.threads (workflow, id)",
    "CREATE INDEX threads_by_parent ON {schema}.threads (forked_from_thread, id)",
    "CREATE INDEX threads_by_start ON {schema}.threads (start, id)",
    // What a worker's claim walks: the runnable threads, oldest first.
    "CREATE INDEX threads_runnable ON {schema}.threads (id) WHERE status = 'active' AND queued = 1",
    `CREATE TABLE {schema}.workflows (
      name text COLLATE "C" PRIMARY KEY,
      address text NOT NULL,
      updated_at text NOT NULL
    )`,
    `CREATE TABLE {schema}.leases (
      thread_id text COLLATE "C" PRIMARY KEY,
      token text NOT NULL,
      pid integer NOT NULL,
      host text NOT NULL,
      process_start text,
      agent_group integer,
      agent_start text,
      acquired_at bigint NOT NULL,
      expires_at bigint NOT NULL
    )`,
    `CREATE TABLE {schema}.chain_links (
      address text COLLATE "C" PRIMARY KEY,
      prev text COLLATE "C" NOT NULL,
      bytes bytea NOT NULL
    )`,
    // Each thread's chain as its steps' [address, role] pairs; head is where it ends, so a step appends in SQL.
    `CREATE TABLE {schema}.chain_indexes (
      thread_id text COLLATE "C" PRIMARY KEY,
      start text NOT NULL,
      head text NOT NULL,
      steps jsonb NOT NULL
    )`,
  ],
  [
    // Threads `uwf delete` removed, with the head each had: gc collects their nodes without taking them
    // for lost threads, and recover does not bring them back.
    `CREATE TABLE {schema}.deleted_threads (
      id text COLLATE "C" PRIMARY KEY,
      head text NOT NULL,
      deleted_at text NOT NULL
    )`,
  ],
  // When `uwf cancel` asked the lease's holder to stop and cancel the thread; NULL when nobody has.
  ["ALTER TABLE {schema}.leases ADD COLUMN cancel_requested_at bigint"],
  // How an ended thread ended (JSON: role, status, edge); NULL unless its status is ended.
  ["ALTER TABLE {schema}.threads ADD COLUMN outcome text"],
  [
    // Evaluation reports by id (ULIDs, so id order is time order): each names its eval-report/1 node, a
    // root gc keeps, and the suite or selection it scored, which `uwf eval list` filters by.
    `CREATE TABLE {schema}.eval_reports (
      id text COLLATE "C" PRIMARY KEY,
      address text COLLATE "C" NOT NULL,
      name text COLLATE "C" NOT NULL,
      created_at text NOT NULL
    )`,
    "CREATE INDEX eval_reports_by_name ON {schema}.eval_reports (name, id)",
  ],
  [
    // The change feed (`uwf ui`): every statement that changes a thread, a lease or an eval report
    // notifies the channel POSTGRES_CHANGE_CHANNEL with the schema's name, delivered at commit (once per
    // transaction, however many statements); and what it re-reads then, the threads updated and deleted
    // since a time, has an index. Times are ISO 8601 text, compared byte-wise.
    // Written to run again over its own objects (a schema set back to an older version re-migrates).
    `CREATE OR REPLACE FUNCTION {schema}.notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       PERFORM pg_notify('${POSTGRES_CHANGE_CHANNEL}', TG_TABLE_SCHEMA);
       RETURN NULL;
     END $$`,
    ...["threads", "leases", "eval_reports"].flatMap((table) => [
      `DROP TRIGGER IF EXISTS ${table}_notify_change ON {schema}.${table}`,
      `CREATE TRIGGER ${table}_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
       ON {schema}.${table} FOR EACH STATEMENT EXECUTE FUNCTION {schema}.notify_change()`,
    ]),
    'CREATE INDEX IF NOT EXISTS threads_by_update ON {schema}.threads ((updated_at COLLATE "C"))',
    'CREATE INDEX IF NOT EXISTS deleted_threads_by_time ON {schema}.deleted_threads ((deleted_at COLLATE "C"))',
  ],
  [
    // A branch's lineage (JSON: the parent, its fan-out step's number and address, the key, the role), and
    // its parent apart, indexed, so a parent's branches are found; NULL on every thread that is not a branch.
    "ALTER TABLE {schema}.threads ADD COLUMN IF NOT EXISTS branch_of text",
    'ALTER TABLE {schema}.threads ADD COLUMN IF NOT EXISTS branch_of_thread text COLLATE "C"',
    `CREATE INDEX IF NOT EXISTS threads_by_branch_parent ON {schema}.threads (branch_of_thread, id)
     WHERE branch_of_thread IS NOT NULL`,
    // Each branch under its parent's fan-out step: one per key, which is what makes a fan-out's branches
    // once however many processes make them. idx is the branch's place in the fan-out (declaration or item
    // order). A parent's fork shares links with it, so a thread may be linked under several parents.
    `CREATE TABLE IF NOT EXISTS {schema}.branch_links (
      parent text COLLATE "C" NOT NULL,
      step integer NOT NULL,
      key text COLLATE "C" NOT NULL,
      idx integer NOT NULL,
      thread text COLLATE "C" NOT NULL,
      created_at text NOT NULL,
      PRIMARY KEY (parent, step, key)
    )`,
    "CREATE INDEX IF NOT EXISTS branch_links_by_thread ON {schema}.branch_links (thread)",
    // The change feed hears of links made or dropped as of the threads.
    "DROP TRIGGER IF EXISTS branch_links_notify_change ON {schema}.branch_links",
    `CREATE TRIGGER branch_links_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
     ON {schema}.branch_links FOR EACH STATEMENT EXECUTE FUNCTION {schema}.notify_change()`,
  ],
  [
    // The schedule that started a thread and its fire time (JSON); NULL on every thread no schedule started.
    "ALTER TABLE {schema}.threads ADD COLUMN IF NOT EXISTS scheduled_by text",
    `CREATE INDEX IF NOT EXISTS threads_by_schedule ON {schema}.threads (((scheduled_by::jsonb ->> 'schedule')), id)
     WHERE scheduled_by IS NOT NULL`,
    // Schedules by name: the whole record (JSON), and when each is next due apart, which firing compares
    // and swaps (ISO 8601 text; NULL while paused).
    `CREATE TABLE IF NOT EXISTS {schema}.schedules (
      name text COLLATE "C" PRIMARY KEY,
      record text NOT NULL,
      next_fire_at text
    )`,
  ],
  [
    // The workflow a fork onto another workflow version left (fork --workflow); NULL on every other thread.
    "ALTER TABLE {schema}.threads ADD COLUMN IF NOT EXISTS forked_from_workflow text",
  ],
  // The head a step under the lease is about to move its thread to, recorded before its step node is
  // written: a holder that died before moving the head left that node, a crashed step's, not a lost head.
  ['ALTER TABLE {schema}.leases ADD COLUMN IF NOT EXISTS intended_head text COLLATE "C"'],
  [
    // The exploration that made a fork and the step it re-runs from (JSON); NULL on every other thread.
    "ALTER TABLE {schema}.threads ADD COLUMN IF NOT EXISTS explored_by text",
  ],
  [
    // The search index (uwf list --search, the UI's ?q=): each thread's distinct words, lower case and
    // space-separated, as a tsvector ('simple': no stemming, no stop words) under a GIN index. Every thread
    // is found by its id and workflow however it was made (triggers); the engine adds its prompt, roles and
    // field values. What running steps' agents print (uwf log --follow -v, the UI), notifying the change feed.
    `CREATE TABLE IF NOT EXISTS {schema}.thread_words (
      thread text COLLATE "C" PRIMARY KEY,
      words text NOT NULL,
      document tsvector GENERATED ALWAYS AS (to_tsvector('simple', words)) STORED
    )`,
    "CREATE INDEX IF NOT EXISTS thread_words_by_document ON {schema}.thread_words USING gin (document)",
    `INSERT INTO {schema}.thread_words (thread, words) SELECT id, lower(id) || ' ' || lower(workflow)
     FROM {schema}.threads ON CONFLICT (thread) DO NOTHING`,
    `CREATE TABLE IF NOT EXISTS {schema}.step_output (
      thread text COLLATE "C" NOT NULL,
      step integer NOT NULL,
      seq integer NOT NULL,
      stream text NOT NULL,
      text text NOT NULL,
      at text NOT NULL,
      PRIMARY KEY (thread, step, seq)
    )`,
    `CREATE OR REPLACE FUNCTION {schema}.thread_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO {schema}.thread_words (thread, words) VALUES (NEW.id, lower(NEW.id) || ' ' || lower(NEW.workflow))
         ON CONFLICT (thread) DO NOTHING;
       RETURN NULL;
     END $$`,
    `CREATE OR REPLACE FUNCTION {schema}.thread_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       DELETE FROM {schema}.thread_words WHERE thread = OLD.id;
       DELETE FROM {schema}.step_output WHERE thread = OLD.id;
       RETURN NULL;
     END $$`,
    "DROP TRIGGER IF EXISTS threads_indexed ON {schema}.threads",
    `CREATE TRIGGER threads_indexed AFTER INSERT ON {schema}.threads
     FOR EACH ROW EXECUTE FUNCTION {schema}.thread_inserted()`,
    "DROP TRIGGER IF EXISTS threads_unindexed ON {schema}.threads",
    `CREATE TRIGGER threads_unindexed AFTER DELETE ON {schema}.threads
     FOR EACH ROW EXECUTE FUNCTION {schema}.thread_deleted()`,
    "DROP TRIGGER IF EXISTS step_output_notify_change ON {schema}.step_output",
    `CREATE TRIGGER step_output_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
     ON {schema}.step_output FOR EACH STATEMENT EXECUTE FUNCTION {schema}.notify_change()`,
  ],
  [
    // When due work must next look at a suspended thread (its suspension's deadline, ISO 8601); NULL on
    // every other thread. Indexed, so a worker's idle pass reads the threads due, not every suspended one. A
    // thread suspended before the column existed is due at once: the first pass reads its wait and sets it.
    'ALTER TABLE {schema}.threads ADD COLUMN IF NOT EXISTS deadline text COLLATE "C"',
    "CREATE INDEX IF NOT EXISTS threads_by_deadline ON {schema}.threads (deadline) WHERE deadline IS NOT NULL",
    "UPDATE {schema}.threads SET deadline = '1970-01-01T00:00:00.000Z' WHERE status = 'suspended'",
  ],
  [
    // What uwf diff reports of each step of a thread's chain index (a JSON array that names its step), a row a
    // step, kept as steps commit; steps of indexes made before have none, and their nodes are read.
    `CREATE TABLE IF NOT EXISTS {schema}.chain_index_details (
      thread_id text COLLATE "C" NOT NULL,
      address text COLLATE "C" NOT NULL,
      entry jsonb NOT NULL,
      PRIMARY KEY (thread_id, address)
    )`,
  ],
];

/**
 * Brings the store's schema to POSTGRES_SCHEMA_VERSION, creating it on first use; refuses one a
 * newer uwf wrote (StoreTooNewError), changing nothing. An up-to-date schema costs one query. Else
 * the migration runs in one transaction under an advisory lock keyed by the schema's name, so
 * processes opening a new store at once create it exactly once, and a failed migration leaves
 * nothing half done.
 */
export async function migratePostgresStore(
  connection: PostgresConnection,
  schema: string,
  shownUrl: string,
): Promise<void> {
  const version = await readVersion(connection.query, schema);
  if (version === POSTGRES_SCHEMA_VERSION) return;
  if (version !== null && version > POSTGRES_SCHEMA_VERSION) throw tooNew(shownUrl, schema, version);
  await connection.transaction(async (query) => {
    await query("SELECT pg_advisory_xact_lock(hashtext($1))", [`uwf store schema ${schema}`]);
    await query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await query(`CREATE TABLE IF NOT EXISTS "${schema}".schema_version (version integer NOT NULL)`);
    // Read again under the lock: another process may have migrated meanwhile.
    const current = (await readVersion(query, schema)) ?? 0;
    if (current > POSTGRES_SCHEMA_VERSION) throw tooNew(shownUrl, schema, current);
    for (let step = current; step < POSTGRES_SCHEMA_VERSION; step++) {
      for (const statement of MIGRATIONS[step] as readonly string[]) {
        await query(statement.replaceAll("{schema}", `"${schema}"`));
      }
    }
    await query(`DELETE FROM "${schema}".schema_version`);
    await query(`INSERT INTO "${schema}".schema_version (version) VALUES ($1)`, [POSTGRES_SCHEMA_VERSION]);
  });
}

/** The stored version; null when the schema or its version table does not exist yet (or holds no row). */
async function readVersion(query: PostgresQuery, schema: string): Promise<number | null> {
  try {
    const [row] = await query<{ version: number }>(`SELECT version FROM "${schema}".schema_version`);
    return row?.version ?? null;
  } catch (error) {
    // undefined_table, invalid_schema_name: a store not created yet.
    if (/^(42P01|3F000)$/.test(sqlStateOf(error))) return null;
    throw error;
  }
}

function tooNew(shownUrl: string, schema: string, version: number): StoreTooNewError {
  return new StoreTooNewError(`${shownUrl} (schema ${schema})`, version, POSTGRES_SCHEMA_VERSION);
}
