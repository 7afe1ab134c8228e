import type { ThreadStatus } from "@uwf/protocol";
import type { ListThreadsResult } from "./thread-refs.ts";

/** How many matches past the page's start a search counts by default: counting every one of 100,000 costs more than the page. */
export const SEARCH_COUNT_LIMIT = 1_000;

export interface SearchThreadsQuery {
  /** Words, each matched as the start of a word of a thread's indexed text (case-insensitive); all must match. */
  text: string;
  status?: ThreadStatus;
  workflow?: string;
  limit?: number;
  offset?: number;
  /** Count the matches only up to `offset + countUpTo` (default SEARCH_COUNT_LIMIT); see SearchThreadsResult. */
  countUpTo?: number;
}

/**
 * A page of matches, newest first, and `total`: how many match, counted up to the query's `offset +
 * countUpTo`; `more` is true when more than that match (the total is then a lower bound).
 */
export interface SearchThreadsResult extends ListThreadsResult {
  more: boolean;
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
  /** The words of a thread's index entry (its id and workflow among them); [] when it has none. What `uwf store copy` copies. */
  listThreadWords(threadId: string): Promise<string[]>;
  /** The threads whose entry holds a word starting with each of the query's words, newest first, with the total that match. */
  searchThreads(query: SearchThreadsQuery): Promise<SearchThreadsResult>;
}
