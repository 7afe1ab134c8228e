import { describe, expect, it } from "bun:test";
import { roleBackoffMs, roleRetryPolicy } from "./role-retry-policy.ts";
import { writtenDuration } from "./suspend-on-timeout.ts";

describe("roleRetryPolicy", () => {
  it("is null for a role without retries:, so config's and a worker's apply", () => {
    expect(roleRetryPolicy({ goal: "Write." })).toBeNull();
    expect(roleRetryPolicy(undefined)).toBeNull();
  });

  it("defaults to a 1 s backoff and every trigger", () => {
    const policy = roleRetryPolicy({ goal: "Write.", retries: { max: 2 } });
    expect(policy?.max).toBe(2);
    expect(policy?.backoffMs).toBe(1000);
    expect([...(policy?.on ?? [])].sort()).toEqual(["agent-failed", "invalid-reply", "timeout"]);
  });

  it("doubles the backoff for each relaunch, never over a minute", () => {
    const policy = roleRetryPolicy({ goal: "Write.", retries: { max: 9, backoff: "20s", on: ["timeout"] } });
    if (policy === null) throw new Error("expected a policy");
    expect([1, 2, 3, 4].map((relaunch) => roleBackoffMs(policy, relaunch))).toEqual([20_000, 40_000, 60_000, 60_000]);
    expect([...policy.on]).toEqual(["timeout"]);
  });
});

describe("writtenDuration", () => {
  it("writes milliseconds as a workflow writes a duration", () => {
    expect(writtenDuration(600_000)).toBe("10m");
    expect(writtenDuration(90_000)).toBe("1m30s");
    expect(writtenDuration(5_400_000)).toBe("1h30m");
    expect(writtenDuration(1500)).toBe("1s500ms");
    expect(writtenDuration(0)).toBe("0s");
  });
});
