import type { Lease } from "@uwf/protocol";
import type { LeaseRefs } from "../refs/lease-refs.ts";
import { isProcessAlive } from "./is-process-alive.ts";

/**
 * How long before its lease was taken a step's writes may appear to have happened: file systems
 * stamp files with a clock that lags the system clock by up to a tick, and machines sharing a
 * store disagree a little about the time.
 */
export const LEASE_CLOCK_MARGIN_MS = 2_000;

export interface FindLeaseCutoffOptions {
  now: Date;
  /**
   * This machine's name as steps record it in their leases (`os.hostname()`): a lease held by a
   * process here counts for exactly as long as that process lives. Without it, leases count until
   * they expire.
   */
  host?: string;
  /**
   * Whether a process of this machine, started at `start` (null: not known), is alive; default
   * `isProcessAlive`, which knows a pid the system gave to another process since.
   */
  isAlive?: (pid: number, start: string | null) => boolean;
}

/**
 * The earliest write time a step still in flight may have given a node it is about to link, or
 * null when no step is in flight: the time the oldest lease that may still commit was taken, less
 * LEASE_CLOCK_MARGIN_MS. A step takes its thread's lease before it writes anything, and every node
 * it links is either on the thread's chain (reachable from the record already) or written, or put
 * again, under that lease; so a node written since this cutoff may belong to a step in flight.
 *
 * A lease counts until it expires; one held by a process on this host counts while that process
 * lives, even past its expiry (a stopped process may wake and still commit) and never once it has
 * died (a killed stepper commits nothing), nor once its pid names a process that started later. `gc` keeps everything written since the cutoff, and
 * `recover` rebuilds no thread from a head written since.
 */
export async function findLeaseCutoff(
  refs: Pick<LeaseRefs, "listLeases">,
  options: FindLeaseCutoffOptions,
): Promise<number | null> {
  const isAlive = options.isAlive ?? isProcessAlive;
  let oldest: number | null = null;
  for (const lease of await refs.listLeases()) {
    if (!leaseMayStillCommit(lease, { ...options, isAlive })) continue;
    const acquiredAt = Date.parse(lease.acquiredAt);
    if (oldest === null || acquiredAt < oldest) oldest = acquiredAt;
  }
  return oldest === null ? null : oldest - LEASE_CLOCK_MARGIN_MS;
}

/**
 * Whether a step may still commit under this lease: its holder is a live process of this host (past its
 * expiry too), or, elsewhere, the lease has not expired. A crashed step's row (a dead holder here, one
 * past its lifetime elsewhere, or the expired pid-0 row an unsettled release leaves) is held by no one:
 * any stepper may take it over, and a suite waiting for held threads does not wait for it.
 */
export function leaseMayStillCommit(lease: Lease, options: FindLeaseCutoffOptions): boolean {
  const isAlive = options.isAlive ?? isProcessAlive;
  if (lease.pid === 0) return false;
  if (options.host !== undefined && lease.host === options.host) return isAlive(lease.pid, lease.processStart);
  return Date.parse(lease.expiresAt) > options.now.getTime();
}
