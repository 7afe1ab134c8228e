/** ULIDs: 26 Crockford base32 characters, time-ordered. */
export const THREAD_ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** The thread statuses, in the order a thread usually passes through them. */
export const THREAD_STATUSES = ["active", "suspended", "ended", "cancelled"] as const;
