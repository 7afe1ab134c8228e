import type { Config } from "@uwf/protocol";

/**
 * How long a step's lease lives without renewal, unless config's `leases.lifetime` says otherwise. The
 * holder renews it every quarter of this (a heartbeat) while the agent runs, so a step of any length
 * keeps it, and a stepper or worker that died on another host blocks its threads for at most this long
 * (on this host its lease is taken over at once). (The head's compare-and-swap keeps the thread correct
 * even if a lease were lost; the lease is what makes a second stepper fail at once instead of after its run.)
 */
export const STEP_LEASE_TTL_MS = 15_000;

/** The lease lifetime config sets (`leases.lifetime`, seconds), else STEP_LEASE_TTL_MS. */
export function leaseLifetimeMs(config: Pick<Config, "leases"> | undefined): number {
  const seconds = config?.leases?.lifetime;
  return seconds === undefined ? STEP_LEASE_TTL_MS : seconds * 1000;
}
