import { checkListQuery } from "../refs/check-list-query.ts";
import { checkStepOutputQuery } from "../refs/check-step-output.ts";
import { searchCountCeiling, searchTotal } from "../refs/search-count.ts";
import { mergeSearchWords, searchWords } from "../refs/search-words.ts";
import type { StepOutputChunk, StepOutputLog } from "../refs/step-output-log.ts";
import { THREAD_COLUMNS, type ThreadRow, threadFromRow } from "../refs/thread-rows.ts";
import type { ThreadSearch } from "../refs/thread-search.ts";
import type { PostgresConnection } from "./postgres-connection.ts";

/**
 * The search index (a tsvector under GIN, each query word a `word:*` prefix) and the step output of a
 * PostgreSQL ref store; see the schema's version 12.
 */
export function createPostgresSearchAndOutputMethods(
  connection: PostgresConnection,
  schema: string,
): ThreadSearch & StepOutputLog {
  const { query } = connection;
  const words = `"${schema}".thread_words`;
  const threads = `"${schema}".threads`;
  const output = `"${schema}".step_output`;
  return {
    async listThreadWords(threadId) {
      const [row] = await query<{ words: string }>(`SELECT words FROM ${words} WHERE thread = $1`, [threadId]);
      return row === undefined ? [] : searchWords(row.words);
    },
    async indexThreadText(threadId, texts) {
      await connection.transaction(async (inTransaction) => {
        // The row lock keeps two steps' words from overwriting each other's.
        const [row] = await inTransaction<{ words: string }>(
          `SELECT words FROM ${words} WHERE thread = $1 FOR UPDATE`,
          [threadId],
        );
        if (row === undefined) return;
        const merged = mergeSearchWords(row.words, texts);
        if (merged !== row.words)
          await inTransaction(`UPDATE ${words} SET words = $1 WHERE thread = $2`, [merged, threadId]);
      });
    },
    async searchThreads(input) {
      const listQuery = checkListQuery(input);
      const ceiling = searchCountCeiling(input);
      const wanted = searchWords(input.text);
      if (wanted.length === 0) return { threads: [], total: 0, more: false };
      const values: unknown[] = [wanted.map((word) => `${word}:*`).join(" & ")];
      const conditions = ["w.document @@ to_tsquery('simple', $1)"];
      if (listQuery.status !== undefined) {
        values.push(listQuery.status);
        conditions.push(`t.status = $${values.length}`);
      }
      if (listQuery.workflow !== undefined) {
        values.push(listQuery.workflow);
        conditions.push(`t.workflow = $${values.length}`);
      }
      const from = `${threads} AS t JOIN ${words} AS w ON w.thread = t.id WHERE ${conditions.join(" AND ")}`;
      const filters = [...values];
      values.push(listQuery.limit ?? null, listQuery.offset ?? 0);
      const columns = THREAD_COLUMNS.split(",")
        .map((column) => `t.${column.trim()}`)
        .join(", ");
      const rows = await query<ThreadRow>(
        `SELECT ${columns} FROM ${from} ORDER BY t.id DESC LIMIT $${values.length - 1} OFFSET $${values.length}`,
        values,
      );
      const [count] = await query<{ total: string | number }>(
        `SELECT count(*) AS total FROM (SELECT 1 FROM ${from} LIMIT $${filters.length + 1}) AS counted`,
        [...filters, ceiling + 1],
      );
      return { threads: rows.map(threadFromRow), ...searchTotal(Number(count?.total ?? 0), ceiling) };
    },
    async appendStepOutput(threadId, chunks) {
      if (chunks.length === 0) return;
      const values: unknown[] = [];
      const rows = chunks.map((chunk) => {
        values.push(threadId, chunk.step, chunk.seq, chunk.stream, chunk.text, chunk.at);
        const at = values.length - 5;
        return `($${at}, $${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5})`;
      });
      await query(
        `INSERT INTO ${output} (thread, step, seq, stream, text, at) VALUES ${rows.join(", ")} ON CONFLICT DO NOTHING`,
        values,
      );
    },
    async readStepOutput(threadId, input = {}) {
      const outputQuery = checkStepOutputQuery(input);
      const values: unknown[] = [threadId];
      const conditions = ["thread = $1"];
      if (outputQuery.step !== undefined) {
        values.push(outputQuery.step);
        conditions.push(`step = $${values.length}`);
      }
      if (outputQuery.after !== undefined) {
        values.push(outputQuery.after.step, outputQuery.after.seq);
        conditions.push(`(step, seq) > ($${values.length - 1}, $${values.length})`);
      }
      values.push(outputQuery.limit);
      const rows = await query<StepOutputChunk>(
        `SELECT step, seq, stream, text, at FROM ${output} WHERE ${conditions.join(" AND ")}
         ORDER BY step, seq LIMIT $${values.length}`,
        values,
      );
      return rows.map((row) => ({ ...row, step: Number(row.step), seq: Number(row.seq) }));
    },
  };
}
