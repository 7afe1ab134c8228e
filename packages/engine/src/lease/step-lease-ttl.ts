/**
 * How long a step's lease lives without renewal. The stepper renews it every quarter of this while
 * the agent runs, so a step of any length keeps it, and a stepper that died on another host blocks
 * the thread for at most this long (on this host its lease is taken over at once). (The head's
 * compare-and-swap keeps the thread correct even if a lease were lost; the lease is what makes a
 * second stepper fail at once instead of after its run.)
 */
export const STEP_LEASE_TTL_MS = 60_000;
