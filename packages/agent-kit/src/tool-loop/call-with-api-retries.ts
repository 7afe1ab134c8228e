import type { ApiErrorClasses } from "./api-error-classes.ts";

type Sdk = ApiErrorClasses;

/**
 * The error types an API may send in the stream after HTTP 200 that are worth another attempt: the
 * Messages API's `error` events, and the OpenAI-style `{ error: { type | code } }` chunk.
 */
const RETRYABLE_STREAM_ERRORS = new Set([
  "overloaded_error",
  "api_error",
  "rate_limit_error",
  "timeout_error",
  "server_error",
  "rate_limit_exceeded",
]);
const INITIAL_DELAY_SECONDS = 0.5;
const MAX_DELAY_SECONDS = 8;

export interface CallWithApiRetriesOptions {
  sdk: Sdk;
  /** Attempts after the first one. */
  maxRetries: number;
  signal?: AbortSignal;
  /** Told before each wait: the failed attempt (1-based), the attempts allowed, the wait and the error. */
  onRetry?: (retry: { attempt: number; attempts: number; delayMs: number; error: unknown }) => void;
}

/** Success and failure have one shape; `attempts` is how many requests were made. */
export type ApiCallResult<Value> =
  | { success: true; value: Value; attempts: number }
  | { success: false; error: unknown; attempts: number };

/**
 * Runs one API call with uwf's retries, the one policy for every request:
 * connection errors and timeouts, HTTP 408, 409, 429 and 5xx (529 included)
 * and — which the SDK does not retry — `overloaded_error`, `api_error`,
 * `rate_limit_error` and `timeout_error` events sent mid-stream after HTTP 200
 * are tried again, up to `maxRetries` times. The wait is the SDK's: what
 * `retry-after-ms` or `retry-after` asks, else 0.5 s doubling up to 8 s, less
 * up to 25 % jitter. The client itself must not retry (`maxRetries: 0`), so
 * attempts are counted here. An abort stops the wait and the retries.
 */
export async function callWithApiRetries<Value>(
  call: () => Promise<Value>,
  options: CallWithApiRetriesOptions,
): Promise<ApiCallResult<Value>> {
  const attempts = options.maxRetries + 1;
  for (let attempt = 1; ; attempt++) {
    try {
      return { success: true, value: await call(), attempts: attempt };
    } catch (error) {
      if (attempt >= attempts || options.signal?.aborted || !isRetryableApiError(error, options.sdk)) {
        return { success: false, error, attempts: attempt };
      }
      const delayMs = retryDelayMs(error, attempt - 1, options.sdk);
      options.onRetry?.({ attempt, attempts, delayMs, error });
      await sleep(delayMs, options.signal);
      if (options.signal?.aborted) return { success: false, error, attempts: attempt };
    }
  }
}

/** Whether a failed request is worth another attempt (see {@link callWithApiRetries}). */
export function isRetryableApiError(error: unknown, sdk: Sdk): boolean {
  if (error instanceof sdk.APIUserAbortError) return false;
  if (error instanceof sdk.APIConnectionError) return true;
  if (!(error instanceof sdk.APIError)) return false;
  if (error.status === undefined) return RETRYABLE_STREAM_ERRORS.has(String(error.type ?? streamErrorCode(error)));
  const header = error.headers?.get("x-should-retry");
  if (header === "true") return true;
  if (header === "false") return false;
  return error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
}

/** How long to wait before retry number `retriesSoFar + 1`: the server's `retry-after(-ms)`, else exponential backoff. */
export function retryDelayMs(error: unknown, retriesSoFar: number, sdk: Sdk): number {
  const headers = error instanceof sdk.APIError ? error.headers : undefined;
  const asked = requestedDelayMs(headers ?? undefined);
  if (asked !== null) return asked;
  const seconds = Math.min(INITIAL_DELAY_SECONDS * 2 ** retriesSoFar, MAX_DELAY_SECONDS);
  return seconds * (1 - Math.random() * 0.25) * 1000;
}

function requestedDelayMs(headers: Headers | undefined): number | null {
  const milliseconds = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (usable(milliseconds)) return milliseconds;
  const header = headers?.get("retry-after");
  if (header === null || header === undefined) return null;
  const seconds = Number.parseFloat(header);
  const fromHeader = Number.isNaN(seconds) ? Date.parse(header) - Date.now() : seconds * 1000;
  return usable(fromHeader) ? fromHeader : null;
}

function usable(milliseconds: number): boolean {
  return Number.isFinite(milliseconds) && milliseconds > 0 && milliseconds <= 2 ** 31 - 1;
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, milliseconds);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** The `code` of an OpenAI-style error chunk, for one that has no `type`. */
function streamErrorCode(error: { error: unknown }): string | undefined {
  const body = error.error as { code?: unknown } | null | undefined;
  return typeof body?.code === "string" ? body.code : undefined;
}
