import { describe, expect, it } from "bun:test";
import * as sdk from "@anthropic-ai/sdk";
import { callWithApiRetries, isRetryableApiError, retryDelayMs } from "./call-with-api-retries.ts";

function httpError(status: number, type: string, headers: Record<string, string> = {}) {
  const body = { type: "error", error: { type, message: type } };
  return sdk.APIError.generate(status, body, undefined, new Headers(headers));
}

/** What the SDK throws for an `error` event in a stream: no status, the body's type. */
function streamError(type: string) {
  const body = { type: "error", error: { type, message: "Overloaded" } };
  return new sdk.APIError(undefined, body, undefined, new Headers(), type as never);
}

describe("isRetryableApiError", () => {
  it("retries what the SDK retries over HTTP, and the errors the API sends mid-stream", () => {
    for (const status of [408, 409, 429, 500, 503, 529])
      expect(isRetryableApiError(httpError(status, "x"), sdk)).toBe(true);
    for (const status of [400, 401, 403, 404, 413])
      expect(isRetryableApiError(httpError(status, "x"), sdk)).toBe(false);
    for (const type of ["overloaded_error", "api_error", "rate_limit_error", "timeout_error"]) {
      expect(isRetryableApiError(streamError(type), sdk)).toBe(true);
    }
    expect(isRetryableApiError(streamError("invalid_request_error"), sdk)).toBe(false);
    expect(isRetryableApiError(new sdk.APIConnectionError({ message: "reset" }), sdk)).toBe(true);
    expect(isRetryableApiError(new sdk.APIUserAbortError(), sdk)).toBe(false);
    expect(isRetryableApiError(new Error("bug"), sdk)).toBe(false);
  });

  it("obeys x-should-retry", () => {
    expect(isRetryableApiError(httpError(400, "x", { "x-should-retry": "true" }), sdk)).toBe(true);
    expect(isRetryableApiError(httpError(529, "x", { "x-should-retry": "false" }), sdk)).toBe(false);
  });
});

describe("retryDelayMs", () => {
  it("waits what retry-after-ms or retry-after asks, else 0.5 s doubling up to 8 s, less up to 25 % jitter", () => {
    expect(retryDelayMs(httpError(429, "x", { "retry-after-ms": "250" }), 0, sdk)).toBe(250);
    expect(retryDelayMs(httpError(429, "x", { "retry-after": "2" }), 0, sdk)).toBe(2000);
    for (const [retries, seconds] of [
      [0, 0.5],
      [1, 1],
      [3, 4],
      [6, 8],
    ] as const) {
      const delay = retryDelayMs(streamError("overloaded_error"), retries, sdk);
      expect(delay).toBeLessThanOrEqual(seconds * 1000);
      expect(delay).toBeGreaterThanOrEqual(seconds * 750);
    }
  });
});

describe("callWithApiRetries", () => {
  it("counts the attempts, retries what is retryable and gives up after maxRetries", async () => {
    const retries: string[] = [];
    let calls = 0;
    const result = await callWithApiRetries(
      async () => {
        calls++;
        throw httpError(529, "overloaded_error", { "retry-after-ms": "1" });
      },
      { sdk, maxRetries: 2, onRetry: (retry) => retries.push(`${retry.attempt}/${retry.attempts}`) },
    );
    expect(result).toMatchObject({ success: false, attempts: 3 });
    expect(calls).toBe(3);
    expect(retries).toEqual(["1/3", "2/3"]);

    const once = await callWithApiRetries(
      async () => {
        throw httpError(400, "invalid_request_error");
      },
      { sdk, maxRetries: 2 },
    );
    expect(once.attempts).toBe(1);
  });

  // A hang guard, not a measurement: the abort ends a wait of ten minutes.
  it("stops waiting when aborted", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const waits: number[] = [];
    const result = await callWithApiRetries(
      async () => {
        throw httpError(529, "overloaded_error", { "retry-after": "600" });
      },
      { sdk, maxRetries: 3, signal: controller.signal, onRetry: (retry) => waits.push(retry.delayMs) },
    );
    expect(waits).toEqual([600_000]);
    expect(result).toMatchObject({ success: false, attempts: 1 });
  }, 20_000);
});
