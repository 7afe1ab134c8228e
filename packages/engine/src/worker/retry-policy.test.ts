import { describe, expect, it } from "bun:test";
import { DEFAULT_RETRY_POLICY, resolveRetryPolicy, retryDelayMs } from "./retry-policy.ts";

describe("retryDelayMs", () => {
  it("doubles the wait from one retry to the next", () => {
    const policy = { retries: 5, backoffMs: 1000, backoffMaxMs: 60_000 };
    expect([1, 2, 3, 4].map((retry) => retryDelayMs(policy, retry))).toEqual([1000, 2000, 4000, 8000]);
  });

  it("never waits longer than backoffMaxMs", () => {
    const policy = { retries: 10, backoffMs: 1000, backoffMaxMs: 5000 };
    expect([3, 4, 10].map((retry) => retryDelayMs(policy, retry))).toEqual([4000, 5000, 5000]);
  });
});

describe("resolveRetryPolicy", () => {
  it("takes the defaults where config.yaml's worker: is silent", () => {
    expect(resolveRetryPolicy(undefined)).toEqual(DEFAULT_RETRY_POLICY);
    expect(resolveRetryPolicy({ retries: 1 })).toEqual({ ...DEFAULT_RETRY_POLICY, retries: 1 });
  });

  it("lets flags beat config.yaml", () => {
    expect(resolveRetryPolicy({ retries: 1, backoffMs: 50 }, { retries: 0 })).toEqual({
      ...DEFAULT_RETRY_POLICY,
      retries: 0,
      backoffMs: 50,
    });
  });
});
