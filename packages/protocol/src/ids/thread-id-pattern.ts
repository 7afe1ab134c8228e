/** ULIDs: 26 Crockford base32 characters, time-ordered. */
export const THREAD_ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;
