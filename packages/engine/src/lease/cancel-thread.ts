import { isProcessAlive, type Store } from "@uwf/cas";
import type { Lease, ThreadRecord } from "@uwf/protocol";
import { CancelPendingError } from "../errors/cancel-pending-error.ts";
import { InterruptedError } from "../errors/interrupted-error.ts";
import { ThreadBusyError } from "../errors/thread-busy-error.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";
import { sleepUnlessAborted } from "../watch/sleep-unless-aborted.ts";
import { isSettled, markThreadCancelled } from "./mark-thread-cancelled.ts";
import { STEP_LEASE_TTL_MS } from "./step-lease-ttl.ts";
import { CHECK_LEASES_SIGNAL, withThreadLease } from "./with-thread-lease.ts";

/**
 * How long `uwf cancel` waits, by default, for the holder of a thread's lease to honour its request: a
 * holder renews its lease every quarter of its lifetime (STEP_LEASE_TTL_MS, 15 s, by default), sees the request then, stops its
 * agent and lets the thread go; a holder that died on another host holds it until the lease expires
 * (STEP_LEASE_TTL_MS unless config says otherwise), when the cancel takes the lease itself. So: one lease
 * lifetime and one renewal period.
 */
export const CANCEL_WAIT_MS = STEP_LEASE_TTL_MS + STEP_LEASE_TTL_MS / 4;

/** How often a waiting cancel looks at the thread and its lease, as `uwf wait` does. */
const CANCEL_POLL_MS = 200;

export interface CancelThreadOptions {
  store: Pick<Store, "refs">;
  threadId: string;
  /** This machine's name, for the lease the cancel takes (as a step's), and to signal a holder of this host. */
  host: string;
  now(): Date;
  /** How long to wait for a holder to honour the request (default CANCEL_WAIT_MS); 0 returns once it is recorded (`--no-wait`). */
  waitMs?: number;
  /** The command's own signal (Ctrl-C): stops the wait, leaving the request recorded. */
  signal?: AbortSignal;
}

export interface CancelThreadResult {
  record: ThreadRecord;
  /** False when the thread was already cancelled, or is not yet (`pending`): nothing was written. */
  changed: boolean;
  /** The lease holder that was asked to stop the thread (it was being stepped); null when none was. */
  holder: Lease | null;
  /** True when the holder has not honoured the request yet (only with `waitMs: 0`): the thread is still as it was. */
  pending: boolean;
}

/**
 * Cancels an active, suspended or failed thread: it refuses further steps, but its nodes stay, so it
 * can be read and forked. A thread nobody steps is marked under its lease at once. One being stepped
 * (by `step`, `run`, `resume`, a batch or a worker, on any host) gets a cancel request recorded on its
 * lease (RefStore.requestCancel), and a holder of this host is signalled (CHECK_LEASES_SIGNAL) so that
 * it looks at once; the holder stops its agent, keeps what it wrote, releases the lease and marks the
 * thread cancelled, and this waits for that (up to `waitMs`, then CancelPendingError). An ended thread
 * is refused (ThreadAlreadyEndedError); cancelling a cancelled thread changes nothing and succeeds.
 */
export async function cancelThread(options: CancelThreadOptions): Promise<CancelThreadResult> {
  const { store, threadId, now } = options;
  const waitMs = options.waitMs ?? CANCEL_WAIT_MS;
  const deadline = Date.now() + waitMs;
  const signalled = new Set<string>();
  let holder: Lease | null = null;
  for (;;) {
    const found = await store.refs.getThread(threadId);
    if (found === null) throw new ThreadNotFoundError(threadId);
    if (isSettled(found)) return { record: found, changed: holder !== null, holder, pending: false };
    try {
      const marked = await withThreadLease(
        { refs: store.refs, threadId, ttlMs: STEP_LEASE_TTL_MS, host: options.host, now },
        () => markThreadCancelled(store.refs, threadId, now),
      );
      return { ...marked, holder, pending: false };
    } catch (error) {
      if (!(error instanceof ThreadBusyError)) throw error;
    }
    // Being stepped: ask its holder (null when it let the thread go just now: take the lease then).
    const asked = await store.refs.requestCancel(threadId, now());
    if (asked === null) continue;
    holder = asked;
    if (!signalled.has(asked.token)) {
      signalled.add(asked.token);
      signalHolder(asked, options.host);
    }
    if (waitMs <= 0) return { record: found, changed: false, holder, pending: true };
    if (Date.now() >= deadline) throw new CancelPendingError(threadId, asked, waitMs);
    const signal = options.signal ?? new AbortController().signal;
    if (!(await sleepUnlessAborted(CANCEL_POLL_MS, signal))) throw new InterruptedError(String(signal.reason), null);
  }
}

/**
 * Tells a holder of this host to look at its leases now, rather than at its next renewal. A holder of
 * another host, or one whose pid now names another process, is left alone: it sees the request when
 * it renews its lease.
 */
function signalHolder(holder: Lease, host: string): void {
  if (holder.host !== host || !isProcessAlive(holder.pid, holder.processStart)) return;
  try {
    process.kill(holder.pid, CHECK_LEASES_SIGNAL);
  } catch {
    // Gone meanwhile, or not ours to signal (another user's): it sees the request when it renews.
  }
}
