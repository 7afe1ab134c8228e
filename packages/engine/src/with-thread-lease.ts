import { isProcessAlive, type RefStore, readProcessStart } from "@uwf/cas";
import { isUwfError, type Lease, messageOf } from "@uwf/protocol";
import { LeaseLostError } from "./lease-lost-error.ts";
import { stopOrphanedAgent } from "./stop-orphaned-agent.ts";
import { ThreadBusyError } from "./thread-busy-error.ts";

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
  /** Throws LeaseLostError once the lease is lost: call it right before moving the head. */
  assertHeld(): void;
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
 * LeaseLostError; the lease is released once `work` is done.
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
  let result: Result;
  try {
    await stopReplacedAgent(acquired.replaced, host, options.killGraceMs);
    result = await work(hold);
  } catch (error) {
    await hold.release({ afterFailure: true });
    throw hold.explain(error);
  }
  await hold.release();
  return result;
}

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
   * error is what to report, so a release the store fails is let go (see releaseAfterFailure).
   */
  release(options?: { afterFailure?: boolean }): Promise<void>;
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

  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const scheduleRenewal = () => {
    timer = setTimeout(
      () => {
        checked("renewing it", () => refs.renewLease(lease, ttlMs, now()));
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

  return {
    signal:
      options.signal === undefined ? lostController.signal : AbortSignal.any([options.signal, lostController.signal]),
    recordAgent(pid) {
      checked("recording its agent", () => refs.recordLeaseAgent(lease, { group: pid, start: readProcessStart(pid) }));
    },
    assertHeld() {
      if (lost !== null) throw new LeaseLostError(threadId, lost.problem, lost);
    },
    explain(error) {
      return lost === null || error instanceof LeaseLostError ? error : leaseLostError(threadId, lost, error);
    },
    async release(releaseOptions = {}) {
      stopped = true;
      clearTimeout(timer);
      // Updates in flight settle (and never reject) before the lease is released.
      await Promise.all(pending);
      if (releaseOptions.afterFailure === true) await releaseAfterFailure(refs, lease);
      else await refs.releaseLease(lease);
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
async function releaseAfterFailure(refs: RefStore, lease: Lease): Promise<void> {
  await refs.releaseLease(lease).catch(() => {});
}

function leaseLostError(threadId: string, lost: LostLease, error: unknown): LeaseLostError {
  // The step stopped its agent and kept what it had written in a run, named in its own error.
  const run = isUwfError(error) && typeof error.data.run === "string" ? error.data.run : null;
  return new LeaseLostError(threadId, lost.problem, { takenOver: lost.takenOver, run, cause: lost.cause ?? error });
}
