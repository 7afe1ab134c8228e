import { Database } from "bun:sqlite";
import { REF_SCHEMA_VERSION } from "../sqlite/open-ref-database.ts";

/** What undoes each migration, by the version it made: a test builds an older database from a new one with it. */
const UNDO_MIGRATION: Record<number, readonly string[]> = {
  2: ["DROP TABLE chain_links"],
  3: ["DROP TABLE chain_indexes"],
  4: ["ALTER TABLE threads DROP COLUMN recovered_from"],
  5: ["process_start", "agent_group", "agent_start"].map((column) => `ALTER TABLE leases DROP COLUMN ${column}`),
  6: ["ALTER TABLE threads DROP COLUMN failed_usage"],
  7: [
    "DROP INDEX threads_by_parent",
    "DROP INDEX threads_by_start",
    ...["forked_from_thread", "forked_from_step", "forked_from_replaced"].map(
      (column) => `ALTER TABLE threads DROP COLUMN ${column}`,
    ),
  ],
  8: ["ALTER TABLE threads DROP COLUMN budget"],
  9: [
    "DROP INDEX threads_runnable",
    "ALTER TABLE threads DROP COLUMN queued",
    "ALTER TABLE threads DROP COLUMN failure",
  ],
  10: ["DROP TABLE deleted_threads"],
  11: ["ALTER TABLE leases DROP COLUMN cancel_requested_at"],
  12: ["ALTER TABLE threads DROP COLUMN outcome"],
  13: ["DROP TABLE eval_reports"],
  14: ["DROP INDEX threads_by_update", "DROP INDEX deleted_threads_by_time"],
  15: [
    "DROP TABLE branch_links",
    "DROP INDEX threads_by_branch_parent",
    "ALTER TABLE threads DROP COLUMN branch_of",
    "ALTER TABLE threads DROP COLUMN branch_of_thread",
  ],
  16: ["DROP TABLE schedules", "DROP INDEX threads_by_schedule", "ALTER TABLE threads DROP COLUMN scheduled_by"],
  17: ["ALTER TABLE threads DROP COLUMN forked_from_workflow"],
  18: ["ALTER TABLE leases DROP COLUMN intended_head"],
  19: ["ALTER TABLE threads DROP COLUMN explored_by"],
  20: [
    "DROP TRIGGER threads_indexed",
    "DROP TRIGGER threads_unindexed",
    "DROP TABLE thread_words_index",
    "DROP TABLE thread_words",
    "DROP TABLE step_output",
  ],
  21: ["DROP INDEX threads_by_deadline", "ALTER TABLE threads DROP COLUMN deadline"],
  22: ["DROP INDEX threads_not_explored"],
  23: [
    `CREATE TRIGGER thread_words_updated AFTER UPDATE ON thread_words BEGIN
      INSERT INTO thread_words_index (thread_words_index, rowid, words) VALUES ('delete', old.row, old.words);
      INSERT INTO thread_words_index (rowid, words) VALUES (new.row, new.words);
    END`,
    "INSERT INTO thread_words_index (thread_words_index) VALUES ('rebuild')",
  ],
  24: ["DROP TABLE chain_index_details"],
};

/**
 * Turns the closed ref database at `path` back into what ref schema `version` created, keeping its rows: how
 * a test makes a home "from an older uwf". Each migration must have its undo above.
 */
export function rollBackRefDatabase(path: string, version: number): void {
  const database = new Database(path);
  for (let undone = REF_SCHEMA_VERSION; undone > version; undone--) {
    const undo = UNDO_MIGRATION[undone];
    if (undo === undefined) throw new Error(`no undo for ref schema migration ${undone}: add it to UNDO_MIGRATION`);
    for (const sql of undo) database.run(sql);
  }
  database.run(`PRAGMA user_version = ${version}`);
  database.close();
}
