import type { RefStore } from "@uwf/cas";
import type { ThreadRecord } from "@uwf/protocol";
import { HeadConflictError } from "../errors/head-conflict-error.ts";
import { ThreadAlreadyEndedError } from "../errors/thread-already-ended-error.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";

export interface MarkThreadCancelledResult {
  record: ThreadRecord;
  /** False when the thread was already cancelled: nothing was written. */
  changed: boolean;
}

/**
 * Sets a thread `cancelled`; the caller holds its lease. An ended thread is refused
 * (ThreadAlreadyEndedError) and keeps `ended`; a cancelled one is left as it is.
 */
export async function markThreadCancelled(
  refs: RefStore,
  threadId: string,
  now: () => Date,
): Promise<MarkThreadCancelledResult> {
  const current = await refs.getThread(threadId);
  if (current === null) throw new ThreadNotFoundError(threadId);
  if (isSettled(current)) return { record: current, changed: false };
  // A cancelled thread is no worker's to claim: it leaves the queue (`show` no longer says `queued yes`).
  const update = {
    status: "cancelled",
    updatedAt: now().toISOString(),
    ...(current.queued === true ? { queued: false } : {}),
  } as const;
  if (!(await refs.updateThread(current.id, current.head, update))) {
    throw new HeadConflictError(current.id, current.head, current.head);
  }
  return { record: { ...current, ...update }, changed: true };
}

/** True for a cancelled thread (nothing to do); throws for an ended one; false for one to cancel. */
export function isSettled(record: ThreadRecord): boolean {
  if (record.status === "ended") throw new ThreadAlreadyEndedError(record.id, record.head);
  return record.status === "cancelled";
}
