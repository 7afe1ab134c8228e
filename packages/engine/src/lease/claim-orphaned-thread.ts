import { type ClaimedThread, isProcessAlive, type RefStore, readProcessStart } from "@uwf/cas";

export interface ClaimOrphanedThreadOptions {
  refs: RefStore;
  host: string;
  ttlMs: number;
  now(): Date;
  workflow?: string;
}

/**
 * Takes over the lease of a queued, active thread whose holder was a process of this host that is gone
 * (a worker or stepper killed mid-step), without waiting for the lease to expire, as `uwf step` does;
 * null when there is none. `claimThread` takes only free or expired leases; a holder on another host
 * keeps its lease until it expires, since this host cannot tell whether it lives.
 */
export async function claimOrphanedThread(options: ClaimOrphanedThreadOptions): Promise<ClaimedThread | null> {
  const { refs, host } = options;
  for (const holder of await refs.listLeases()) {
    if (holder.host !== host || isProcessAlive(holder.pid, holder.processStart)) continue;
    const thread = await refs.getThread(holder.threadId);
    if (thread === null || thread.status !== "active" || thread.queued !== true) continue;
    if (options.workflow !== undefined && thread.workflow !== options.workflow) continue;
    const acquired = await refs.acquireLease(thread.id, {
      ttlMs: options.ttlMs,
      pid: process.pid,
      host,
      processStart: readProcessStart(process.pid),
      now: options.now(),
      takeOver: holder.token,
    });
    // Another worker of this host took it first.
    if (!acquired.acquired) continue;
    return { thread, lease: acquired.lease, replaced: acquired.replaced };
  }
  return null;
}
