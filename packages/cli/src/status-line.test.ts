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
});
