/** uwf's retries of one request (`callWithApiRetries`): connection errors, 408/409/429/5xx/529 and errors mid-stream. */
export const DEFAULT_MAX_RETRIES = 4;
/** The longest one model request may take. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10 * 60 * 1000;
