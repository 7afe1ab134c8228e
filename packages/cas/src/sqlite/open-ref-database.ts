import { constants, Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { RefStoreUnavailableError } from "../errors/ref-store-unavailable-error.ts";
import { StoreTooNewError } from "../errors/store-too-new-error.ts";
import { asRefStoreError } from "./ref-database-damage.ts";

/** Bumped with every schema change; `openRefDatabase` migrates older files step by step. */
export const REF_SCHEMA_VERSION = 24;

/** Each entry turns schema version `index` into `index + 1`. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE threads (
    id TEXT PRIMARY KEY,
    workflow TEXT NOT NULL,
    workflow_address TEXT NOT NULL,
    start TEXT NOT NULL,
    head TEXT NOT NULL,
    status TEXT NOT NULL,
    next TEXT,
    reason TEXT,
    step_count INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    forked_from TEXT,
    usage TEXT NOT NULL
  ) WITHOUT ROWID;
  -- list filters walk these newest first (ids are ULIDs, so id order is time order).
  CREATE INDEX threads_by_status ON threads (status, id);
  CREATE INDEX threads_by_workflow ON threads (workflow, id);

  CREATE TABLE workflows (
    name TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) WITHOUT ROWID;

  -- Times in epoch milliseconds: expiry is compared in SQL, atomically with the takeover.
  CREATE TABLE leases (
    thread_id TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    acquired_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  `
  -- A cache of thread-step nodes (canonical bytes), so a long chain reads in one recursive query.
  -- A rowid table: rows of a few hundred bytes are too large for a WITHOUT ROWID b-tree to pay.
  CREATE TABLE chain_links (
    address TEXT PRIMARY KEY,
    prev TEXT NOT NULL,
    bytes BLOB NOT NULL
  );
  `,
  `
  -- Each thread's chain as its steps' addresses and roles (a JSON array of pairs), so a step on a long
  -- thread knows its chain from one row; head is where it ends (its last step, or its start), so a new
  -- step is appended in SQL. A rowid table, for the same reason as chain_links.
  CREATE TABLE chain_indexes (
    thread_id TEXT PRIMARY KEY,
    start TEXT NOT NULL,
    head TEXT NOT NULL,
    steps TEXT NOT NULL
  );
  `,
  `
  -- The head a record was rebuilt from by \`uwf cas recover\`; NULL for every other record.
  ALTER TABLE threads ADD COLUMN recovered_from TEXT;
  `,
  `
  -- Who holds a lease beyond its pid: when that process started (so a reused pid is not taken for it),
  -- and the process group of the agent it runs and when that started (what a taker stops once the
  -- holder has died). NULL where not known, and on leases taken before.
  ALTER TABLE leases ADD COLUMN process_start TEXT;
  ALTER TABLE leases ADD COLUMN agent_group INTEGER;
  ALTER TABLE leases ADD COLUMN agent_start TEXT;
  `,
  `
  -- What agent runs that did not become a step used (JSON usage); NULL until a run fails.
  ALTER TABLE threads ADD COLUMN failed_usage TEXT;
  `,
  `
  -- A fork's lineage beside its address (forked_from): the parent thread, the step number of that node in
  -- the parent's chain, and whether the fork replaced that step's reply (0 or 1). NULL on originals, and
  -- on forks recorded before, which keep only their address.
  ALTER TABLE threads ADD COLUMN forked_from_thread TEXT;
  ALTER TABLE threads ADD COLUMN forked_from_step INTEGER;
  ALTER TABLE threads ADD COLUMN forked_from_replaced INTEGER;
  -- list --forks-of walks a parent's forks; fork and tree look up the threads that share a start node.
  CREATE INDEX threads_by_parent ON threads (forked_from_thread, id);
  CREATE INDEX threads_by_start ON threads (start, id);
  `,
  `
  -- A thread's limits and the one it reached while suspended for it (JSON); NULL on a thread without any.
  ALTER TABLE threads ADD COLUMN budget TEXT;
  `,
  `
  -- Whether workers may claim the thread (1: put in the queue by start/run --queue; NULL or 0: not), and
  -- why a worker gave up on it (JSON; NULL unless its status is failed).
  ALTER TABLE threads ADD COLUMN queued INTEGER;
  ALTER TABLE threads ADD COLUMN failure TEXT;
  -- What a worker's claim walks: the runnable threads, oldest first.
  CREATE INDEX threads_runnable ON threads (id) WHERE status = 'active' AND queued = 1;
  `,
  `
  -- Threads \`uwf delete\` removed, with the head each had: gc collects their nodes without taking them for
  -- lost threads, and recover does not bring them back.
  CREATE TABLE deleted_threads (
    id TEXT PRIMARY KEY,
    head TEXT NOT NULL,
    deleted_at TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  `
  -- When \`uwf cancel\` asked the lease's holder to stop and cancel the thread (epoch ms); NULL when nobody has.
  ALTER TABLE leases ADD COLUMN cancel_requested_at INTEGER;
  `,
  `
  -- How an ended thread ended (JSON: role, status, edge); NULL unless its status is ended, and on
  -- threads ended before outcomes were kept.
  ALTER TABLE threads ADD COLUMN outcome TEXT;
  `,
  `
  -- Evaluation reports by id (ULIDs, so id order is time order): each names its eval-report/1 node, a root
  -- gc keeps, and the suite or selection it scored, which \`uwf eval list\` filters by.
  CREATE TABLE eval_reports (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX eval_reports_by_name ON eval_reports (name, id);
  `,
  `
  -- What a change feed (\`uwf ui\`) re-reads after a change: the threads updated, and deleted, since a time.
  CREATE INDEX IF NOT EXISTS threads_by_update ON threads (updated_at);
  CREATE INDEX IF NOT EXISTS deleted_threads_by_time ON deleted_threads (deleted_at);
  `,
  `
  -- A branch's lineage (JSON: the parent, its fan-out step's number and address, the key, the role), and
  -- its parent apart, indexed, so a parent's branches are found; NULL on every thread that is not a branch.
  ALTER TABLE threads ADD COLUMN branch_of TEXT;
  ALTER TABLE threads ADD COLUMN branch_of_thread TEXT;
  CREATE INDEX threads_by_branch_parent ON threads (branch_of_thread, id) WHERE branch_of_thread IS NOT NULL;
  -- Each branch under its parent's fan-out step: one per key, which is what makes a fan-out's branches
  -- once however many processes make them. idx is the branch's place in the fan-out (declaration or item
  -- order). A parent's fork shares links with it, so a thread may be linked under several parents.
  CREATE TABLE branch_links (
    parent TEXT NOT NULL,
    step INTEGER NOT NULL,
    key TEXT NOT NULL,
    idx INTEGER NOT NULL,
    thread TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (parent, step, key)
  ) WITHOUT ROWID;
  CREATE INDEX branch_links_by_thread ON branch_links (thread);
  `,
  `
  -- The schedule that started a thread and its fire time (JSON); NULL on every thread no schedule started.
  ALTER TABLE threads ADD COLUMN scheduled_by TEXT;
  CREATE INDEX threads_by_schedule ON threads (json_extract(scheduled_by, '$.schedule'), id)
    WHERE scheduled_by IS NOT NULL;
  -- Schedules by name: the whole record (JSON), and when each is next due apart, which firing compares
  -- and swaps (ISO 8601 text; NULL while paused).
  CREATE TABLE schedules (
    name TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    next_fire_at TEXT
  ) WITHOUT ROWID;
  `,
  `
  -- The workflow a fork onto another workflow version left (fork --workflow); NULL on every other thread.
  ALTER TABLE threads ADD COLUMN forked_from_workflow TEXT;
  `,
  `
  -- The head a step under the lease is about to move its thread to, recorded before its step node is
  -- written: a holder that died before moving the head left that node, a crashed step's, not a lost head.
  ALTER TABLE leases ADD COLUMN intended_head TEXT;
  `,
  `
  -- The exploration that made a fork and the step it re-runs from (JSON); NULL on every other thread.
  ALTER TABLE threads ADD COLUMN explored_by TEXT;
  `,
  `
  -- The search index (uwf list --search, the UI's ?q=): each thread's distinct words, lower case,
  -- space-separated, and an FTS5 index over them kept in step by triggers. The row number is the
  -- order the threads were indexed in (their creation order), so matches come newest first from the
  -- index itself, with no sort. Prefixes of 1 to 6 characters are indexed too: a short query word
  -- would otherwise expand to every word it starts (770 ms for one letter on 100,000 threads, under
  -- 1 ms with them). Threads recorded before this version are indexed by id and workflow.
  CREATE TABLE thread_words (
    row INTEGER PRIMARY KEY,
    thread TEXT NOT NULL UNIQUE,
    words TEXT NOT NULL
  );
  CREATE VIRTUAL TABLE thread_words_index USING fts5(words, content='thread_words', content_rowid='row', prefix='1 2 3 4 5 6');
  CREATE TRIGGER thread_words_inserted AFTER INSERT ON thread_words BEGIN
    INSERT INTO thread_words_index (rowid, words) VALUES (new.row, new.words);
  END;
  CREATE TRIGGER thread_words_deleted AFTER DELETE ON thread_words BEGIN
    INSERT INTO thread_words_index (thread_words_index, rowid, words) VALUES ('delete', old.row, old.words);
  END;
  CREATE TRIGGER thread_words_updated AFTER UPDATE ON thread_words BEGIN
    INSERT INTO thread_words_index (thread_words_index, rowid, words) VALUES ('delete', old.row, old.words);
    INSERT INTO thread_words_index (rowid, words) VALUES (new.row, new.words);
  END;
  -- Every thread is found by its id and workflow however it was made (start, fork, branch, schedule,
  -- copy, recover); the engine adds its prompt, roles and field values.
  INSERT INTO thread_words (thread, words) SELECT id, lower(id) || ' ' || lower(workflow) FROM threads ORDER BY id;
  CREATE TRIGGER threads_indexed AFTER INSERT ON threads BEGIN
    INSERT OR IGNORE INTO thread_words (thread, words) VALUES (new.id, lower(new.id) || ' ' || lower(new.workflow));
  END;
  CREATE TRIGGER threads_unindexed AFTER DELETE ON threads BEGIN
    DELETE FROM thread_words WHERE thread = old.id;
    DELETE FROM step_output WHERE thread = old.id;
  END;
  -- What running steps' agents print (uwf log --follow -v, the UI), a batch of chunks at a time.
  CREATE TABLE step_output (
    thread TEXT NOT NULL,
    step INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    stream TEXT NOT NULL,
    text TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (thread, step, seq)
  ) WITHOUT ROWID;
  `,
  `
  -- When due work must next look at a suspended thread (its suspension's deadline, ISO 8601); NULL on every
  -- other thread. Indexed, so a worker's idle pass reads the threads due, not every suspended one. A thread
  -- suspended before the column existed is due at once: the first pass reads its wait and sets its deadline.
  ALTER TABLE threads ADD COLUMN deadline TEXT;
  CREATE INDEX threads_by_deadline ON threads (deadline) WHERE deadline IS NOT NULL;
  UPDATE threads SET deadline = '1970-01-01T00:00:00.000Z' WHERE status = 'suspended';
  `,
  `
  -- The threads a plain uwf list counts (every one but the forks uwf explore made), as a covering index:
  -- the count reads this index instead of every row of the table (about 3× less on 20,000 threads).
  CREATE INDEX threads_not_explored ON threads (explored_by, id) WHERE explored_by IS NULL;
  `,
  `
  -- A thread's search entry grows by what each step adds: the store adds the words new to the thread to the
  -- FTS index under its row, instead of the update trigger indexing the whole entry again (a step's time grew
  -- with its thread's words: about 1 ms at 250 words, 9 ms at 2,000). thread_words keeps the whole list, so
  -- the delete trigger still takes every word out. The index holds each word at its place in the batch
  -- that added it: matching (words and prefixes, as uwf searches) is the same; ranking by position is not used.
  DROP TRIGGER thread_words_updated;
  `,
  `
  -- What uwf diff reports of each step of a thread's chain index (its output and body, agent, times, $status
  -- and usage: a JSON array that names its step), kept as steps commit, so a diff of two long threads reads
  -- two indexes instead of every step's nodes. A row a step, so a step appends one small row, whatever the
  -- thread's length. Steps of indexes made before have none: their nodes are read.
  CREATE TABLE chain_index_details (
    thread_id TEXT NOT NULL,
    address TEXT NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (thread_id, address)
  ) WITHOUT ROWID;
  `,
];

export interface OpenRefDatabaseOptions {
  /** How long a writer waits for another process's write lock before failing; default 10 s. */
  busyTimeoutMs?: number;
  /**
   * Open an existing file for reading only, creating and migrating nothing (see
   * `openReadOnlyRefDatabase`): for reading a store that cannot be written. Every write fails.
   */
  readOnly?: boolean;
}

/**
 * Opens (creating if needed) the ref database: WAL, so readers never block the writer and
 * processes share it safely; `synchronous = NORMAL`, which in WAL mode never corrupts the
 * file and at worst loses the last commits on power loss (a thread then sits at its old
 * head, which the step algorithm already tolerates); a busy timeout so concurrent steppers
 * queue for the write lock instead of failing. The schema is migrated inside an immediate
 * transaction, so processes opening a new file at the same time create it exactly once. A file
 * that is not a sound database fails with RefStoreDamagedError and is left as it is.
 */
export function openRefDatabase(path: string, options: OpenRefDatabaseOptions = {}): Database {
  if (options.readOnly === true) return openReadOnlyRefDatabase(path);
  let database: Database;
  try {
    database = new Database(path, { create: true, strict: true });
  } catch (error) {
    throw asRefStoreError(error, path);
  }
  try {
    database.run(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 10_000))}`);
    database.run("PRAGMA journal_mode = WAL");
    database.run("PRAGMA synchronous = NORMAL");
    if (schemaVersion(database) < REF_SCHEMA_VERSION) database.transaction(() => migrate(database)).immediate();
    const version = schemaVersion(database);
    if (version > REF_SCHEMA_VERSION) throw new StoreTooNewError(path, version, REF_SCHEMA_VERSION);
  } catch (error) {
    database.close();
    throw asRefStoreError(error, path);
  }
  return database;
}

/**
 * Opens an existing ref database that cannot be written (a read-only file system or folder, a
 * full disk): read-only, through its WAL when SQLite can share that (its `-shm` file exists or can
 * be made); otherwise, when no WAL file holds commits, as an immutable file, which needs no
 * `-shm`, no lock and no write. A WAL with commits that cannot be read so is an error rather than
 * a read that would miss them. The schema must be this version's: a read cannot migrate it.
 */
function openReadOnlyRefDatabase(path: string): Database {
  let database: Database | undefined;
  try {
    try {
      database = checkedForReading(new Database(path, { readonly: true, strict: true }));
    } catch (error) {
      if (fileSize(`${path}-wal`) > 0) throw error;
      // Only the numeric form of the flags turns on URI file names; the queries bind by position.
      const flags = constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI;
      database = checkedForReading(
        new Database(`file:${encodeURI(path).replace(/[?#]/g, encodeURIComponent)}?immutable=1`, flags),
      );
    }
  } catch (error) {
    throw asRefStoreError(error, path);
  }
  const version = schemaVersion(database);
  if (version > REF_SCHEMA_VERSION) {
    database.close();
    throw new StoreTooNewError(path, version, REF_SCHEMA_VERSION);
  }
  if (version < REF_SCHEMA_VERSION) {
    database.close();
    throw new RefStoreUnavailableError(
      path,
      "SQLITE_READONLY",
      `its schema (version ${version}) must be brought up to version ${REF_SCHEMA_VERSION}, which needs a writable store`,
    );
  }
  return database;
}

/** The database, once a first read shows it can be read (SQLite opens files lazily), or closed and the error. */
function checkedForReading(database: Database): Database {
  try {
    schemaVersion(database);
    database.query("SELECT count(*) FROM sqlite_schema").get();
    return database;
  } catch (error) {
    database.close();
    throw error;
  }
}

function fileSize(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.size ?? 0;
}

function schemaVersion(database: Database): number {
  return database.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version ?? 0;
}

function migrate(database: Database): void {
  // Read again under the write lock: another process may have migrated meanwhile.
  for (let version = schemaVersion(database); version < REF_SCHEMA_VERSION; version++) {
    database.run(MIGRATIONS[version] as string);
    database.run(`PRAGMA user_version = ${version + 1}`);
  }
}
