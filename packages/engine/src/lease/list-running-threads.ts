import { isProcessAlive, type LeaseRefs, type ThreadRefs } from "@uwf/cas";
import type { Lease, ThreadRecord } from "@uwf/protocol";

/** A thread being stepped now, and the lease its stepper (a worker, or `uwf step`) holds. */
export interface RunningThread {
  record: ThreadRecord;
  lease: Lease;
}

/**
 * The threads whose step lease is held and not expired at `now`, newest first (by id): who steps what
 * right now. An expired lease is not counted: its holder died or hung, and any stepper may take it over.
 * Nor is the lease of a process of `host` (this machine) that is gone, a worker killed mid-step, say: a
 * stepper of this host takes it over at once, and its thread may even have ended.
 */
export async function listRunningThreads(
  refs: ThreadRefs & LeaseRefs,
  now: Date,
  host: string,
): Promise<RunningThread[]> {
  const running: RunningThread[] = [];
  for (const lease of await refs.listLeases()) {
    if (Date.parse(lease.expiresAt) <= now.getTime()) continue;
    if (lease.host === host && !isProcessAlive(lease.pid, lease.processStart)) continue;
    const record = await refs.getThread(lease.threadId);
    if (record !== null) running.push({ record, lease });
  }
  return running.sort((left, right) => (left.record.id < right.record.id ? 1 : -1));
}
