import { describe, expect, it } from "bun:test";
import { countVisits, historyFunctions } from "./history-functions.ts";
import type { ModeratorStep } from "./moderator-history.ts";

function step(role: string, output: Record<string, unknown>): ModeratorStep {
  return { role, output, body: "", agent: "a", startedAt: "", completedAt: "" };
}

const steps = [
  step("writer", { summary: "draft" }),
  step("reviewer", { $status: "$SUSPEND", reason: "Which style guide?" }),
  step("reviewer", { $status: "rejected" }),
  step("writer", { summary: "second draft" }),
];

/** One of the helpers by its name, as JSONata calls it. */
function helper(name: string): (value: unknown) => unknown {
  const found = historyFunctions(steps)[name];
  if (found === undefined) throw new Error(`no helper $${name}`);
  return found;
}

describe("historyFunctions", () => {
  it("counts a role's completed visits; a $SUSPEND reply and its resumed step are one visit", () => {
    const count = helper("count");
    expect(count("reviewer")).toBe(1);
    expect(count("writer")).toBe(2);
    expect(count("nobody")).toBe(0);
    expect(countVisits([step("fixer", { $status: "$SUSPEND", reason: "?" })], "fixer")).toBe(0);
  });

  it("still counts a sequence that is not a role name", () => {
    const count = helper("count");
    expect(count(steps)).toBe(4);
    expect(count(undefined)).toBe(0);
    expect(count(7)).toBe(1);
  });

  it("gives the newest and oldest output of a role", () => {
    const first = helper("first");
    const last = helper("last");
    expect(first("writer")).toEqual({ summary: "draft" });
    expect(last("writer")).toEqual({ summary: "second draft" });
  });
});
