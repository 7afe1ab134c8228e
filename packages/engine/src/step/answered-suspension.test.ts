import { describe, expect, it } from "bun:test";
import { answeredSuspensionPrompt, readAnsweredSuspension } from "./answered-suspension.ts";

describe("readAnsweredSuspension", () => {
  it("reads back the reason and the answer of the prompt answeredSuspensionPrompt made", () => {
    const prompt = answeredSuspensionPrompt("Which colour?", "Blue.\n\nThe sky's.");
    expect(prompt).toBe("You suspended this thread: Which colour?\n\nThe user's answer:\nBlue.\n\nThe sky's.");
    expect(readAnsweredSuspension(prompt)).toEqual({ reason: "Which colour?", answer: "Blue.\n\nThe sky's." });
  });

  it("is null for any other edge prompt", () => {
    expect(readAnsweredSuspension("Review the change: {{ summary }}")).toBeNull();
    expect(readAnsweredSuspension("You suspended this thread: but no answer follows")).toBeNull();
  });
});
