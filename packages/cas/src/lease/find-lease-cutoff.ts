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
    if (!mayStillCommit(lease, options.now.getTime(), options.host, isAlive)) continue;
    const acquiredAt = Date.parse(lease.acquiredAt);
    if (oldest === null || acquiredAt < oldest) oldest = acquiredAt;
  }
  return oldest === null ? null : oldest - LEASE_CLOCK_MARGIN_MS;
}

function mayStillCommit(
  lease: Lease,
  now: number,
  host: string | undefined,
  isAlive: (pid: number, start: string | null) => boolean,
) {
  if (host !== undefined && lease.host === host) return isAlive(lease.pid, lease.processStart);
  return Date.parse(lease.expiresAt) > now;
}
