import type { WorkerConfig } from "@uwf/protocol";

/** How a worker retries a thread's failing step before it sets the thread `failed`. */
export interface RetryPolicy {
  /** How often a failed step is tried again: `retries + 1` attempts in all. */
  retries: number;
  /** The wait before the first retry; each next one waits twice as long. */
  backoffMs: number;
  /** The longest wait between two attempts. */
  backoffMaxMs: number;
}

/** Three retries, after 1 s, 2 s and 4 s; never more than a minute apart. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, backoffMs: 1000, backoffMaxMs: 60_000 };

/** The retry policy config.yaml's `worker:` sets, each key it leaves out at its default, then `overrides` (flags) over both. */
export function resolveRetryPolicy(
  config: WorkerConfig | undefined,
  overrides: Partial<RetryPolicy> = {},
): RetryPolicy {
  const pick = <Key extends keyof RetryPolicy>(key: Key) =>
    overrides[key] ?? config?.[key] ?? DEFAULT_RETRY_POLICY[key];
  return { retries: pick("retries"), backoffMs: pick("backoffMs"), backoffMaxMs: pick("backoffMaxMs") };
}

/** The wait before retry number `retry` (1 for the first): `backoffMs · 2^(retry−1)`, at most `backoffMaxMs`. */
export function retryDelayMs(policy: RetryPolicy, retry: number): number {
  return Math.min(policy.backoffMaxMs, policy.backoffMs * 2 ** Math.max(0, retry - 1));
}
