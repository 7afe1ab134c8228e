import { parseAddress } from "../encoding/parse-address.ts";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import { checkSince } from "./check-since.ts";
import type { ListThreadsQuery } from "./thread-refs.ts";

/** The query with its start address in canonical form; throws on a bad limit, offset, start or parent. */
export function checkListQuery(query: ListThreadsQuery): ListThreadsQuery {
  for (const field of ["limit", "offset"] as const) {
    const value = query[field];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      throw new InvalidRecordError("thread list query", [`${field}: expected a non-negative integer, got ${value}`]);
    }
  }
  if (query.forksOf !== undefined && typeof query.forksOf?.thread !== "string") {
    throw new InvalidRecordError("thread list query", ["forksOf.thread: expected a thread id"]);
  }
  if (query.updatedSince !== undefined) checkSince(query.updatedSince, "thread list query", "updatedSince");
  if (query.dueBy !== undefined) checkSince(query.dueBy, "thread list query", "dueBy");
  return query.start === undefined ? query : { ...query, start: parseAddress(query.start) };
}
