import { InvalidRecordError } from "../errors/invalid-record-error.ts";

/** The prefix to match thread ids against, upper-cased: ids are upper-case ULIDs, prefixes match in any case. */
export function checkThreadIdQuery(prefix: string, limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new InvalidRecordError("thread id query", [`limit: expected a non-negative integer, got ${limit}`]);
  }
  return prefix.toUpperCase();
}
