/**
 * The thread statuses, in the order a thread usually passes through them. `failed` is where a worker
 * holds a thread whose step kept failing after its retries (see ThreadRecord's `failure`); `uwf resume`
 * makes it active again.
 */
export const THREAD_STATUSES = ["active", "suspended", "ended", "cancelled", "failed"] as const;
