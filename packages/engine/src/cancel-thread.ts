import type { Store } from "@uwf/cas";
import type { ThreadRecord } from "@uwf/protocol";
import { HeadConflictError } from "./head-conflict-error.ts";
import { STEP_LEASE_TTL_MS } from "./step-thread.ts";
import { ThreadAlreadyEndedError } from "./thread-already-ended-error.ts";
import { ThreadNotFoundError } from "./thread-not-found-error.ts";
import { withThreadLease } from "./with-thread-lease.ts";

export interface CancelThreadOptions {
  store: Pick<Store, "refs">;
  threadId: string;
  /** This machine's name, for the lease the cancel takes (as a step's). */
  host: string;
  now(): Date;
}

export interface CancelThreadResult {
  record: ThreadRecord;
  /** False when the thread was already cancelled: nothing was written. */
  changed: boolean;
}

/**
 * Marks an active or suspended thread cancelled, under its lease (a thread that is stepping is
 * busy: ThreadBusyError): it refuses further steps, but its nodes stay, so it can be read and
 * forked. An ended thread is refused (ThreadAlreadyEndedError) and keeps `ended`; cancelling a
 * cancelled thread changes nothing and succeeds, so a caller may cancel twice.
 */
export async function cancelThread(options: CancelThreadOptions): Promise<CancelThreadResult> {
  const { store, threadId, now } = options;
  const read = async () => {
    const record = await store.refs.getThread(threadId);
    if (record === null) throw new ThreadNotFoundError(threadId);
    return record;
  };
  const found = await read();
  if (isSettled(found)) return { record: found, changed: false };
  return withThreadLease(
    { refs: store.refs, threadId, ttlMs: STEP_LEASE_TTL_MS, host: options.host, now },
    async (): Promise<CancelThreadResult> => {
      // Read again under the lease: a step may have ended the thread since.
      const current = await read();
      if (isSettled(current)) return { record: current, changed: false };
      const update = { status: "cancelled", updatedAt: now().toISOString() } as const;
      if (!(await store.refs.updateThread(current.id, current.head, update))) {
        throw new HeadConflictError(current.id, current.head, current.head);
      }
      return { record: { ...current, ...update }, changed: true };
    },
  );
}

/** True for a cancelled thread (nothing to do); throws for an ended one; false for one to cancel. */
function isSettled(record: ThreadRecord): boolean {
  if (record.status === "ended") throw new ThreadAlreadyEndedError(record.id, record.head);
  return record.status === "cancelled";
}
