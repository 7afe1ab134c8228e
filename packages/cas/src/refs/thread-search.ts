import type { ThreadStatus } from "@uwf/protocol";
import type { ListThreadsResult } from "./ref-store.ts";

export interface SearchThreadsQuery {
  /** Words, each matched as the start of a word of a thread's indexed text (case-insensitive); all must match. */
  text: string;
  status?: ThreadStatus;
  workflow?: string;
  limit?: number;
  offset?: number;
}

/**
 * A full-text index of threads (`uwf list --search`, the UI's `?q=`): the words of each thread's id,
 * workflow, start prompt, roles and reported field values, as the engine hands them over
 * (`indexThreadText`). Derived data: it finds threads, their records say what they are. SQLite keeps it
 * in an FTS5 table, PostgreSQL in a tsvector column under a GIN index, memory in sets.
 */
export interface ThreadSearch {
  /** Adds the words of `texts` (see searchWords) to a thread's index entry, creating it; a thread deleted since is ignored. */
  indexThreadText(threadId: string, texts: readonly string[]): Promise<void>;
  /** The threads whose entry holds a word starting with each of the query's words, newest first, with the total that match. */
  searchThreads(query: SearchThreadsQuery): Promise<ListThreadsResult>;
}
