import type { Store } from "@uwf/cas";
import type { ThreadRecord } from "@uwf/protocol";
import { HeadConflictError } from "../errors/head-conflict-error.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";
import { STEP_LEASE_TTL_MS } from "../lease/step-lease-ttl.ts";
import { withThreadLease } from "../lease/with-thread-lease.ts";

export interface DeleteThreadOptions {
  store: Pick<Store, "refs">;
  threadId: string;
  /** This machine's name, for the lease the delete takes (as a step's). */
  host: string;
  now(): Date;
}

/**
 * `uwf delete`: removes a thread's record under its lease (a thread being stepped is busy:
 * ThreadBusyError), and remembers it as deleted with its head (RefStore.deleteThread), so the next
 * `uwf cas gc` collects the nodes no other thread reaches without taking them for a lost thread, and
 * `uwf cas recover` does not bring it back. Its nodes stay until then: it can still be forked by address.
 * Returns the record as it was.
 */
export async function deleteThread(options: DeleteThreadOptions): Promise<ThreadRecord> {
  const { store, threadId, now } = options;
  if ((await store.refs.getThread(threadId)) === null) throw new ThreadNotFoundError(threadId);
  return withThreadLease(
    { refs: store.refs, threadId, ttlMs: STEP_LEASE_TTL_MS, host: options.host, now },
    async () => {
      // Read again under the lease: a step may have moved its head since.
      const record = await store.refs.getThread(threadId);
      if (record === null) throw new ThreadNotFoundError(threadId);
      if (!(await store.refs.deleteThread(record.id, record.head, now()))) {
        throw new HeadConflictError(record.id, record.head, record.head);
      }
      return record;
    },
  );
}
