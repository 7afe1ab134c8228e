import type { RefStore } from "@uwf/cas";
import { ThreadBusyError } from "../errors/thread-busy-error.ts";

export interface WithThreadLeaseOptions {
  refs: RefStore;
  threadId: string;
  /** How long the lease lives without renewal: a crashed stepper blocks the thread at most this long. */
  ttlMs: number;
  host: string;
  now(): Date;
}

/**
 * Runs `work` while holding the thread's step lease, renewing it in the background.
 * A second stepper gets ThreadBusyError at once, naming the holder.
 */
export async function withThreadLease<Result>(
  options: WithThreadLeaseOptions,
  work: () => Promise<Result>,
): Promise<Result> {
  const { refs, threadId, ttlMs, host, now } = options;
  const acquired = await refs.acquireLease(threadId, { ttlMs, pid: process.pid, host, now: now() });
  if (!acquired.acquired) throw new ThreadBusyError(threadId, acquired.holder);
  const lease = acquired.lease;
  const renewal = setInterval(
    () => {
      refs.renewLease(lease, ttlMs, now()).catch(() => {});
    },
    Math.max(1000, Math.floor(ttlMs / 4)),
  );
  renewal.unref();
  try {
    return await work();
  } finally {
    clearInterval(renewal);
    await refs.releaseLease(lease);
  }
}
