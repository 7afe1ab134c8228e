import { parseDuration, RETRY_TRIGGERS, type RetryTrigger, type Role } from "@uwf/protocol";

/** A role's `retries:` as a step applies it. */
export interface RoleRetryPolicy {
  /** How often the step is tried again, whatever the trigger: `max + 1` attempts in all. */
  max: number;
  /** The wait before the first relaunch; each next one waits twice as long, never more than ROLE_BACKOFF_MAX_MS. */
  backoffMs: number;
  on: ReadonlySet<RetryTrigger>;
}

/** The default wait before a role's first relaunch. */
export const ROLE_BACKOFF_MS = 1000;
/** The longest wait between two launches of a role's agent. */
export const ROLE_BACKOFF_MAX_MS = 60_000;

/** The role's own retry policy, or null when it declares none (config's `retries` and a worker's then apply). */
export function roleRetryPolicy(role: Role | undefined): RoleRetryPolicy | null {
  const retries = role?.retries;
  if (retries === undefined) return null;
  return {
    max: retries.max,
    backoffMs: retries.backoff === undefined ? ROLE_BACKOFF_MS : (parseDuration(retries.backoff) ?? ROLE_BACKOFF_MS),
    on: new Set(retries.on ?? RETRY_TRIGGERS),
  };
}

/** The wait before relaunch number `relaunch` (1 for the first): `backoffMs · 2^(relaunch−1)`, at most a minute. */
export function roleBackoffMs(policy: RoleRetryPolicy, relaunch: number): number {
  return Math.min(ROLE_BACKOFF_MAX_MS, policy.backoffMs * 2 ** Math.max(0, relaunch - 1));
}
