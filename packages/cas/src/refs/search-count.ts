import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import { SEARCH_COUNT_LIMIT, type SearchThreadsQuery } from "./thread-search.ts";

/** How many matches a search counts at most (`offset + countUpTo`); throws on a countUpTo that is no count of 1 or more. */
export function searchCountCeiling(query: SearchThreadsQuery): number {
  const countUpTo = query.countUpTo ?? SEARCH_COUNT_LIMIT;
  if (!Number.isSafeInteger(countUpTo) || countUpTo < 1) {
    throw new InvalidRecordError("thread search query", [`countUpTo: expected a positive integer, got ${countUpTo}`]);
  }
  return (query.offset ?? 0) + countUpTo;
}

/** The total and `more` of a count made with a LIMIT of ceiling + 1. */
export function searchTotal(counted: number, ceiling: number): { total: number; more: boolean } {
  return counted > ceiling ? { total: ceiling, more: true } : { total: counted, more: false };
}
