import type { Database } from "bun:sqlite";
import { checkListQuery } from "../refs/check-list-query.ts";
import { searchCountCeiling, searchTotal } from "../refs/search-count.ts";
import { mergeSearchWords, searchWords } from "../refs/search-words.ts";
import { THREAD_COLUMNS, type ThreadRow, threadFromRow } from "../refs/thread-rows.ts";
import type { ThreadSearch } from "../refs/thread-search.ts";

/**
 * The search index of a SQLite ref store: FTS5 over each thread's word list (see the `thread_words`
 * migration). Each query word is a prefix query (`"word"*`); the index yields matches newest first
 * by its row order, so a query that matches every thread still reads only a page of records.
 */
export function createSqliteThreadSearchMethods(database: Database): ThreadSearch {
  const selectWords = database.query<{ words: string }, [string]>("SELECT words FROM thread_words WHERE thread = ?");
  const selectEntry = database.query<{ row: number; words: string }, [string]>(
    "SELECT row, words FROM thread_words WHERE thread = ?",
  );
  const update = database.query("UPDATE thread_words SET words = ? WHERE row = ?");
  const addToIndex = database.query("INSERT INTO thread_words_index (rowid, words) VALUES (?, ?)");
  // A thread's entry is made with its record (a trigger) and goes with it: a deleted thread has none to add to.
  // Only the words new to it are indexed, under its row (see ref schema 23), so a step costs what it adds.
  const index = database.transaction((threadId: string, texts: readonly string[]) => {
    const existing = selectEntry.get(threadId);
    if (existing === null) return;
    const merged = mergeSearchWords(existing.words, texts);
    if (merged === existing.words) return;
    update.run(merged, existing.row);
    const before = new Set(existing.words.split(" "));
    addToIndex.run(
      existing.row,
      merged
        .split(" ")
        .filter((word) => !before.has(word))
        .join(" "),
    );
  });
  return {
    async listThreadWords(threadId) {
      const words = selectWords.get(threadId)?.words;
      return words === undefined ? [] : searchWords(words);
    },
    async indexThreadText(threadId, texts) {
      index.immediate(threadId, texts);
    },
    async searchThreads(input) {
      const query = checkListQuery(input);
      const ceiling = searchCountCeiling(input);
      const words = searchWords(input.text);
      if (words.length === 0) return { threads: [], total: 0, more: false };
      const match = words.map((word) => `"${word}"*`).join(" ");
      const conditions = ["thread_words_index MATCH ?"];
      const values: (string | number)[] = [match];
      if (query.status !== undefined) {
        conditions.push("threads.status = ?");
        values.push(query.status);
      }
      if (query.workflow !== undefined) {
        conditions.push("threads.workflow = ?");
        values.push(query.workflow);
      }
      const columns = THREAD_COLUMNS.split(",")
        .map((column) => `threads.${column.trim()}`)
        .join(", ");
      const join =
        "JOIN thread_words ON thread_words.row = matched.rowid JOIN threads ON threads.id = thread_words.thread";
      let rows: ThreadRow[];
      let count: { total: number } | null;
      if (conditions.length === 1) {
        // No filter but the words: the index alone pages and counts; only the page's records are read.
        rows = database
          .query<ThreadRow, (string | number)[]>(
            `SELECT ${columns} FROM (SELECT rowid FROM thread_words_index WHERE thread_words_index MATCH ?
               ORDER BY rowid DESC LIMIT ? OFFSET ?) AS matched ${join} ORDER BY matched.rowid DESC`,
          )
          .all(match, query.limit ?? -1, query.offset ?? 0);
        count = database
          .query<{ total: number }, [string, number]>(
            "SELECT count(*) AS total FROM (SELECT rowid FROM thread_words_index WHERE thread_words_index MATCH ? LIMIT ?)",
          )
          .get(match, ceiling + 1);
      } else {
        const from = `(SELECT rowid FROM thread_words_index WHERE thread_words_index MATCH ?) AS matched ${join}
          WHERE ${conditions.slice(1).join(" AND ")}`;
        rows = database
          .query<ThreadRow, (string | number)[]>(
            `SELECT ${columns} FROM ${from} ORDER BY matched.rowid DESC LIMIT ? OFFSET ?`,
          )
          .all(...values, query.limit ?? -1, query.offset ?? 0);
        count = database
          .query<{ total: number }, (string | number)[]>(
            `SELECT count(*) AS total FROM (SELECT 1 FROM ${from} LIMIT ?)`,
          )
          .get(...values, ceiling + 1);
      }
      return { threads: rows.map(threadFromRow), ...searchTotal(count?.total ?? 0, ceiling) };
    },
  };
}
