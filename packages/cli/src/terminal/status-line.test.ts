import { describe, expect, it } from "bun:test";
import { describeStatus } from "./status-line.ts";

describe("describeStatus", () => {
  const status = { role: "writer", agent: "claude", startedAt: 1_000, step: 3 };

  it("names the step, role, agent and elapsed seconds", () => {
    expect(describeStatus(status, 13_500)).toBe("step 3 · writer · claude · 12s");
  });

  it("adds the turn and the last tool for agents that report them", () => {
    expect(describeStatus({ ...status, activity: { turns: 4, tool: "Bash" } }, 13_500)).toBe(
      "step 3 · writer · claude · 12s · turn 4 · Bash",
    );
    expect(describeStatus({ ...status, activity: { turns: 1, tool: null } }, 1_000)).toBe(
      "step 3 · writer · claude · 0s · turn 1",
    );
  });

  it("counts a batch's threads: running, queued, done and failed, and the seconds since it began", () => {
    const batch = { batch: { running: 2, queued: 5, done: 3, failed: 1 }, startedAt: 1_000 };
    expect(describeStatus(batch, 13_500)).toBe("2 running · 5 queued · 3 done · 1 failed · 12s");
  });
});
