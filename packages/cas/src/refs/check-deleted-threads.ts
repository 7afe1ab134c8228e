import { THREAD_ID_PATTERN } from "@uwf/protocol";
import { parseAddress } from "../encoding/parse-address.ts";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { DeletedThread } from "./thread-refs.ts";

/** Deleted-thread entries checked before they touch storage: a thread id, an address and an ISO 8601 time each. */
export function checkDeletedThreads(entries: readonly DeletedThread[]): DeletedThread[] {
  return entries.map((entry, index) => {
    const problems: string[] = [];
    if (typeof entry.id !== "string" || !THREAD_ID_PATTERN.test(entry.id))
      problems.push(`[${index}].id: expected a thread id`);
    if (typeof entry.deletedAt !== "string" || Number.isNaN(Date.parse(entry.deletedAt))) {
      problems.push(`[${index}].deletedAt: expected an ISO 8601 time`);
    }
    if (problems.length > 0) throw new InvalidRecordError("deleted thread", problems);
    return { id: entry.id, head: parseAddress(entry.head), deletedAt: entry.deletedAt };
  });
}
