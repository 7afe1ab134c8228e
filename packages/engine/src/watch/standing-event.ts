import type { ThreadEndedEvent, ThreadRecord, ThreadSuspendedEvent } from "@uwf/protocol";

/**
 * `thread-ended` or `thread-suspended` when the thread stands so (what `--jsonl` and the live feed
 * report of it); null while it is active, waiting, failed or cancelled.
 */
export function standingEvent(record: ThreadRecord): ThreadEndedEvent | ThreadSuspendedEvent | null {
  if (record.status === "ended") {
    const { outcome } = record;
    return {
      type: "thread-ended",
      thread: record.id,
      head: record.head,
      ...(outcome === undefined ? {} : { outcome }),
    };
  }
  if (record.status === "suspended")
    return {
      type: "thread-suspended",
      thread: record.id,
      head: record.head,
      role: record.next,
      reason: record.reason ?? "",
    };
  return null;
}
