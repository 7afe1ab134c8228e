import { isProcessAlive, type RefStore, readProcessStart } from "@uwf/cas";
import { type Address, isUwfError, type Lease, messageOf, UwfError } from "@uwf/protocol";
import { InterruptedError } from "../errors/interrupted-error.ts";
import { LeaseLostError } from "../errors/lease-lost-error.ts";
import { ThreadAlreadyEndedError } from "../errors/thread-already-ended-error.ts";
import { ThreadBusyError } from "../errors/thread-busy-error.ts";
import { ThreadCancelledError } from "../errors/thread-cancelled-error.ts";
import { markThreadCancelled } from "./mark-thread-cancelled.ts";
import { stopOrphanedAgent } from "./stop-orphaned-agent.ts";

/**
 * The signal `uwf cancel` sends a lease holder of its own host (see requestCancel): every lease this
 * process holds is renewed at once, so a cancel request recorded on one is seen now rather than at the
 * next renewal. Handled from the moment this module loads, before any lease is taken, so the signal
 * never finds a holder without a handler (whose default action would end it).
 */
export const CHECK_LEASES_SIGNAL = "SIGUSR2";

/** Renews each lease this process holds, now: how a holder reacts to CHECK_LEASES_SIGNAL. */
const leaseChecks = new Set<() => void>();
process.on(CHECK_LEASES_SIGNAL, () => {
  for (const check of leaseChecks) check();
});

export interface WithThreadLeaseOptions {
  refs: RefStore;
  threadId: string;
  /** How long the lease lives without renewal: a stepper that died on another host blocks the thread this long. */
  ttlMs: number;
  /** This machine's name (`os.hostname()`): a dead holder of this host loses its lease at once. */
  host: string;
  now(): Date;
  /** The command's own signal (Ctrl-C, SIGTERM, SIGHUP), which the held lease's signal follows. */
  signal?: AbortSignal;
  /** Milliseconds between SIGTERM and SIGKILL when stopping a dead holder's agent. */
  killGraceMs?: number;
}

/** What `work` gets while it holds the lease. */
export interface HeldLease {
  /**
   * Aborted when the command's signal is, and when the lease is lost: taken over, or a renewal or
   * an update of it failed. Stop the agent with it.
   */
  signal: AbortSignal;
  /** Records the process group of an agent just started (its pid), so that a stepper taking over from a dead one stops it. */
  recordAgent(pid: number): void;
  /**
   * Records in the lease the head the step is about to move the thread to, before its step node is
   * written (RefStore.recordLeaseHead): if this process dies before moving the head, that node is known
   * for a crashed step's leftovers, not a lost head. Throws LeaseLostError when the lease was lost.
   */
  recordHead(head: Address): Promise<void>;
  /** Throws LeaseLostError once the lease is lost: call it right before moving the head. */
  assertHeld(): void;
  /**
   * True once `uwf cancel` asked for the thread to be cancelled (seen when the lease was taken or
   * renewed; `signal` is aborted then too): start no further step.
   */
  cancelRequested(): boolean;
}

/** Why the lease was lost, kept until the error is thrown. */
interface LostLease {
  problem: string;
  takenOver: boolean;
  cause?: unknown;
}

/**
 * Runs `work` while holding the thread's step lease, renewing it every quarter of its lifetime.
 * A second stepper gets ThreadBusyError at once, naming the holder and when its lease expires;
 * but a holder of this host whose process is gone (or whose pid now names another process) loses
 * its lease at once, and the agent it left running is stopped before `work` starts. A lease that
 * is lost while `work` runs aborts `work`'s signal, and `work`'s failure then becomes a
 * LeaseLostError; the lease is released once `work` is done. A cancel request (`uwf cancel`) seen
 * while `work` runs aborts its signal too, and its interruption becomes a ThreadCancelledError; once
 * the lease is released, a request seen at any point is honoured (honourCancelRequest).
 */
export async function withThreadLease<Result>(
  options: WithThreadLeaseOptions,
  work: (held: HeldLease) => Promise<Result>,
): Promise<Result> {
  const { refs, threadId, ttlMs, host, now } = options;
  const request = { ttlMs, pid: process.pid, host, processStart: readProcessStart(process.pid) };
  let acquired = await refs.acquireLease(threadId, { ...request, now: now() });
  if (!acquired.acquired && isDeadHolder(acquired.holder, host)) {
    acquired = await refs.acquireLease(threadId, { ...request, now: now(), takeOver: acquired.holder.token });
  }
  if (!acquired.acquired) throw new ThreadBusyError(threadId, acquired.holder, now());
  const hold = holdLease({ refs, lease: acquired.lease, ttlMs, now, signal: options.signal });
  const honour = (requested: boolean) => (requested ? honourCancelRequest({ refs, threadId, host, now }) : undefined);
  let result: Result;
  try {
    await stopReplacedAgent(acquired.replaced, host, options.killGraceMs);
    result = await work(hold);
  } catch (error) {
    // The work's own error is what to report; a cancel left undone is done by the waiting `uwf cancel`.
    await honour(await hold.release({ afterFailure: true }))?.catch(() => {});
    throw hold.explain(error);
  }
  await honour(await hold.release());
  return result;
}

export interface HonourCancelRequestOptions {
  refs: RefStore;
  threadId: string;
  host: string;
  now(): Date;
}

/**
 * Cancels a thread whose lease holder was asked to (RefStore.requestCancel), once that holder has
 * stopped its work and released the lease: under a lease of its own, as `uwf cancel` does. A thread
 * that ended meanwhile stays ended; one another stepper took in between gets the request passed on.
 */
export async function honourCancelRequest(options: HonourCancelRequestOptions): Promise<void> {
  const { refs, threadId, now } = options;
  for (;;) {
    try {
      await withThreadLease({ ...options, ttlMs: HONOUR_LEASE_TTL_MS }, () => markThreadCancelled(refs, threadId, now));
      return;
    } catch (error) {
      if (error instanceof ThreadAlreadyEndedError) return;
      if (!(error instanceof ThreadBusyError)) throw error;
      if ((await refs.requestCancel(threadId, now())) !== null) return;
    }
  }
}

/** The lease honourCancelRequest takes to write one record: short, as it never runs an agent. */
const HONOUR_LEASE_TTL_MS = 60_000;

export interface HoldLeaseOptions {
  refs: RefStore;
  /** A lease this process has just taken (`acquireLease`, or a worker's `claimThread`). */
  lease: Lease;
  ttlMs: number;
  now(): Date;
  /** The signal the held lease's signal follows: the command's, or a worker's abort. */
  signal?: AbortSignal;
}

/** A lease held by holdLease: what work under it gets, and what its holder ends it with. */
export interface LeaseHold extends HeldLease {
  /** A failure of work done under the lease, as the LeaseLostError it becomes once the lease was lost meanwhile. */
  explain(error: unknown): unknown;
  /**
   * Stops renewing and releases the lease if this holder still owns it. `afterFailure`: the work's own
   * error is what to report, so a release the store fails is let go (see releaseAfterFailure). True when
   * a cancel request was seen and the lease was not lost: the holder is to honour it (honourCancelRequest).
   */
  release(options?: { afterFailure?: boolean }): Promise<boolean>;
}

/**
 * Holds a lease already taken, renewing it every quarter of its lifetime until it is released: the
 * lease `withThreadLease` holds for one step, and the one a worker holds across a claimed thread's
 * steps. A lease that is lost (taken over, or a renewal or update of it failed) aborts the hold's
 * signal, and `assertHeld` throws from then on.
 */
export function holdLease(options: HoldLeaseOptions): LeaseHold {
  const { refs, lease, ttlMs, now } = options;
  const { threadId } = lease;
  const lostController = new AbortController();
  let lost: LostLease | null = null;
  const lose = (why: LostLease) => {
    if (lost !== null) return;
    lost = why;
    lostController.abort(new LeaseLostError(threadId, why.problem, why));
  };
  const cancelController = new AbortController();
  const noteCancelRequest = (seen: Lease | null) => {
    if (seen?.cancelRequestedAt != null && !cancelController.signal.aborted) {
      cancelController.abort(new ThreadCancelledError(threadId));
    }
  };
  noteCancelRequest(lease);
  const pending = new Set<Promise<void>>();
  const track = (promise: Promise<void>) => {
    pending.add(promise);
    promise.finally(() => pending.delete(promise));
  };
  const checked = (what: string, update: () => Promise<boolean>) =>
    track(
      update().then(
        (held) => {
          if (!held) lose({ problem: "another process took it over", takenOver: true });
        },
        (error: unknown) => lose({ problem: `${what} failed: ${messageOf(error)}`, takenOver: false, cause: error }),
      ),
    );

  const renew = () =>
    checked("renewing it", async () => {
      const renewed = await refs.renewLease(lease, ttlMs, now());
      noteCancelRequest(renewed);
      return renewed !== null;
    });
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const scheduleRenewal = () => {
    timer = setTimeout(
      () => {
        renew();
        // The next renewal waits for this one, so they never overlap.
        Promise.all(pending).then(() => {
          if (!stopped && lost === null) scheduleRenewal();
        });
      },
      Math.max(1000, Math.floor(ttlMs / 4)),
    );
    timer.unref();
  };
  scheduleRenewal();
  const checkNow = () => {
    if (!stopped) renew();
  };
  leaseChecks.add(checkNow);

  const ownSignals = [lostController.signal, cancelController.signal];
  return {
    signal: AbortSignal.any(options.signal === undefined ? ownSignals : [options.signal, ...ownSignals]),
    recordAgent(pid) {
      checked("recording its agent", () => refs.recordLeaseAgent(lease, { group: pid, start: readProcessStart(pid) }));
    },
    async recordHead(head) {
      if (lost !== null) throw new LeaseLostError(threadId, lost.problem, lost);
      if (!(await refs.recordLeaseHead(lease, head))) {
        lose({ problem: "another process took it over", takenOver: true });
        throw new LeaseLostError(threadId, "another process took it over", { takenOver: true });
      }
    },
    assertHeld() {
      if (lost !== null) throw new LeaseLostError(threadId, lost.problem, lost);
    },
    cancelRequested: () => cancelController.signal.aborted,
    explain(error) {
      if (lost !== null) {
        // A store that cannot be reached is why the lease went, and no other holder is involved: that is
        // what to report (exit 75, try again once the server is up), whichever of the two failed first.
        if (!lost.takenOver && isStoreUnreachable(lost.cause)) return isStoreUnreachable(error) ? error : lost.cause;
        return error instanceof LeaseLostError ? error : leaseLostError(threadId, lost, error);
      }
      // The agent stopped because the thread is being cancelled, not for a signal of this process.
      if (cancelController.signal.aborted && error instanceof InterruptedError && options.signal?.aborted !== true) {
        return new ThreadCancelledError(threadId, { run: runOf(error) });
      }
      return error;
    },
    async release(releaseOptions = {}) {
      stopped = true;
      clearTimeout(timer);
      leaseChecks.delete(checkNow);
      // Updates in flight settle (and never reject) before the lease is released.
      await Promise.all(pending);
      const released =
        releaseOptions.afterFailure === true ? await releaseAfterFailure(refs, lease) : await refs.releaseLease(lease);
      // A request made since the last renewal shows in the lease as it was released.
      noteCancelRequest(released);
      return cancelController.signal.aborted && lost === null;
    },
  };
}

/**
 * Stops the agent that the holder of a lease just replaced left running, when that holder was of
 * this host and its process is gone: a stepper (or worker) that died mid-step.
 */
export async function stopReplacedAgent(replaced: Lease | null, host: string, killGraceMs?: number): Promise<void> {
  if (replaced !== null && isDeadHolder(replaced, host)) await stopOrphanedAgent(replaced, killGraceMs);
}

/** A holder of this host whose process is gone, or whose pid now names another process. */
function isDeadHolder(holder: Lease, host: string): boolean {
  return holder.host === host && !isProcessAlive(holder.pid, holder.processStart);
}

/**
 * Releases the lease of a step that failed. The step's own error is what to report: if the store
 * cannot release the lease either (a full disk fails both), the lease still dies with this process,
 * since a stepper of this host takes over a dead holder's lease at once, and one of another host
 * when it expires.
 */
async function releaseAfterFailure(refs: RefStore, lease: Lease): Promise<Lease | null> {
  return refs.releaseLease(lease).catch(() => null);
}

function leaseLostError(threadId: string, lost: LostLease, error: unknown): LeaseLostError {
  return new LeaseLostError(threadId, lost.problem, {
    takenOver: lost.takenOver,
    run: runOf(error),
    cause: lost.cause ?? error,
  });
}

function isStoreUnreachable(error: unknown): boolean {
  return UwfError.isInstance(error) && error.code === "store-unreachable";
}

/** The run a stopped step kept what its agent had written in, as named in its own error. */
function runOf(error: unknown): string | null {
  return isUwfError(error) && "run" in error.data && typeof error.data.run === "string" ? error.data.run : null;
}
