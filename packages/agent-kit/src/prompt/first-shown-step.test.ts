import { describe, expect, it } from "bun:test";
import { firstShownStep } from "./first-shown-step.ts";

const roles = ["writer", "reviewer", "writer", "reviewer", "editor"].map((role) => ({ role }));

describe("firstShownStep", () => {
  it("starts after the role's last step on a later visit", () => {
    expect(firstShownStep(roles, "writer")).toBe(3);
    expect(firstShownStep(roles, "editor")).toBe(5);
  });

  it("starts at the first step on a role's first visit, and on an empty history", () => {
    expect(firstShownStep(roles, "publisher")).toBe(0);
    expect(firstShownStep([], "writer")).toBe(0);
  });
});
