import type { Store } from "@uwf/cas";
import type { ThreadRecord } from "@uwf/protocol";
import { HeadConflictError } from "../errors/head-conflict-error.ts";
import { ThreadCancelledError } from "../errors/thread-cancelled-error.ts";
import { ThreadEndedError } from "../errors/thread-ended-error.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";
import { ThreadSuspendedError } from "../errors/thread-suspended-error.ts";
import { requeueFailedThread } from "./requeue-failed-thread.ts";

export interface QueueThreadOptions {
  store: Store;
  threadId: string;
  host: string;
  now(): Date;
}

/** The thread as it now stands; `changed: false` when it was queued already, and nothing was written. */
export interface QueueOutcome {
  changed: boolean;
  record: ThreadRecord;
}

/** How often a step recorded between reading the thread and queueing it is read past before giving up. */
const QUEUE_ATTEMPTS = 5;

/**
 * `uwf queue T`: leaves an active thread to `uwf worker` (`queued: true`), by the ref store's
 * conditional update, so a step recorded meanwhile by another process is not overwritten (the record is
 * read again). A failed thread is made active and queued as `uwf resume --queue` does. An ended,
 * suspended or cancelled thread is refused with the error `uwf step` gives it: there is nothing for a
 * worker to do until it is resumed. Queueing a queued thread changes nothing and succeeds.
 */
export async function queueThread(options: QueueThreadOptions): Promise<QueueOutcome> {
  const { store, threadId, now } = options;
  for (let attempt = 1; ; attempt++) {
    const record = await store.refs.getThread(threadId);
    if (record === null) throw new ThreadNotFoundError(threadId);
    if (record.status === "failed") {
      const { requeued, record: requeuedRecord } = await requeueFailedThread(options);
      if (requeued) return { changed: true, record: requeuedRecord };
      continue;
    }
    if (record.status === "cancelled") throw new ThreadCancelledError(record.id);
    if (record.status === "ended") throw new ThreadEndedError(record.id, record.head);
    if (record.status === "suspended") throw new ThreadSuspendedError(record);
    if (record.queued === true) return { changed: false, record };
    const update = { queued: true, updatedAt: now().toISOString() } as const;
    if (await store.refs.updateThread(record.id, record.head, update)) {
      return { changed: true, record: { ...record, ...update } };
    }
    if (attempt >= QUEUE_ATTEMPTS) throw new HeadConflictError(record.id, record.head, record.head);
  }
}
