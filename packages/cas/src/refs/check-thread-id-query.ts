import { InvalidRecordError } from "../errors/invalid-record-error.ts";

/**
 * The prefix to match thread ids (or report ids: `label` says which) against, upper-cased: ids are upper-case
 * ULIDs, prefixes match in any case.
 */
export function checkThreadIdQuery(prefix: string, limit: number, label = "thread id query"): string {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new InvalidRecordError(label, [`limit: expected a non-negative integer, got ${limit}`]);
  }
  return prefix.toUpperCase();
}
