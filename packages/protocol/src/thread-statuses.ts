/** The thread statuses, in the order a thread usually passes through them. */
export const THREAD_STATUSES = ["active", "suspended", "ended", "cancelled"] as const;
