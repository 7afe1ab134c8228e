/**
 * The thread statuses, in the order a thread usually passes through them. `waiting` is a parent whose
 * last step fanned out: it waits for its branches (child threads) until its join's policy holds. `failed` is where a thread
 * stands whose step kept failing after its retries, whoever ran it (see ThreadRecord's `failure`); the
 * next `step`, `run` or `resume` tries it again, and a success makes it active again.
 */
export const THREAD_STATUSES = ["active", "waiting", "suspended", "ended", "cancelled", "failed"] as const;
