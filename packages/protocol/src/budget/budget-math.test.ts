import { describe, expect, it } from "bun:test";
import { budgetSpent, findExceededLimit, limitsFromInput, mergeBudgetLimits, newThreadBudget } from "./budget-math.ts";
import { ZERO_USAGE } from "./usage-math.ts";

const usage = { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 30, cacheWriteTokens: 4, costUsd: 0.25 };

describe("mergeBudgetLimits", () => {
  it("takes each limit from the first source that sets it, null or absent leaving it to the next", () => {
    const flags = { maxSteps: 3 };
    const workflow = limitsFromInput({ max_tokens: 500 });
    const perWorkflow = { maxSteps: 9, maxTokens: 900, maxCostUsd: null };
    const defaults = limitsFromInput({ max_steps: 99, max_cost_usd: 2 });
    expect(mergeBudgetLimits(flags, workflow, perWorkflow, defaults)).toEqual({
      maxSteps: 3,
      maxTokens: 500,
      maxCostUsd: 2,
    });
    expect(mergeBudgetLimits(undefined, limitsFromInput(undefined))).toEqual({
      maxSteps: null,
      maxTokens: null,
      maxCostUsd: null,
    });
  });
});

describe("newThreadBudget", () => {
  it("is undefined without any limit, else the limits with none reached", () => {
    expect(newThreadBudget({ maxSteps: null, maxTokens: null, maxCostUsd: null })).toBeUndefined();
    expect(newThreadBudget({ maxSteps: null, maxTokens: null, maxCostUsd: 1 })).toEqual({
      maxSteps: null,
      maxTokens: null,
      maxCostUsd: 1,
      exceeded: null,
    });
  });
});

describe("budgetSpent", () => {
  it("counts an original's every step and every kind of token", () => {
    expect(budgetSpent({ stepCount: 4, forkedFrom: null, usage })).toEqual({ steps: 4, tokens: 1234, costUsd: 0.25 });
  });

  it("counts a fork's steps from its fork point", () => {
    const forkedFrom = { thread: null, step: 3, address: "2W53JPNXF556H", replaced: false };
    expect(budgetSpent({ stepCount: 5, forkedFrom, usage: ZERO_USAGE }).steps).toBe(2);
    // A fork an older uwf recorded by address only has no step number: all its chain's steps count.
    expect(budgetSpent({ stepCount: 5, forkedFrom: { ...forkedFrom, step: null }, usage: ZERO_USAGE }).steps).toBe(5);
  });
});

describe("findExceededLimit", () => {
  const spent = { steps: 2, tokens: 1000, costUsd: 0.5 };

  it("names the first limit reached — at it counts — in the order steps, tokens, cost", () => {
    expect(findExceededLimit({ maxSteps: 3, maxTokens: 2000, maxCostUsd: 1 }, spent)).toBeNull();
    expect(findExceededLimit({ maxSteps: 3, maxTokens: 2000, maxCostUsd: 0.5 }, spent)).toBe("maxCostUsd");
    expect(findExceededLimit({ maxSteps: 3, maxTokens: 999, maxCostUsd: 0.1 }, spent)).toBe("maxTokens");
    expect(findExceededLimit({ maxSteps: 2, maxTokens: 1, maxCostUsd: 0.1 }, spent)).toBe("maxSteps");
    expect(findExceededLimit({ maxSteps: null, maxTokens: null, maxCostUsd: null }, spent)).toBeNull();
  });
});
