import { describe, expect, it } from "bun:test";
import type { HistoryStep } from "@uwf/engine";
import type { ThreadRecord } from "@uwf/protocol";
import { formatTranscript } from "./format-transcript.ts";

const thread = {
  id: "01J0000000000000000000THRD",
  workflow: "linear",
  start: "0000000000STA",
  status: "active",
  reason: null,
  next: "doer",
} as ThreadRecord;

function step(number: number, body: string, output: Record<string, unknown> = { done: true }): HistoryStep {
  return {
    number,
    address: `00000000000S${number}`,
    role: "doer",
    agent: "sh",
    output,
    body,
    edgePrompt: "Go.",
    startedAt: "2025-01-01T00:00:00.000Z",
    completedAt: "2025-01-01T00:00:01.000Z",
    run: "0000000000RUN",
    usage: null,
  };
}

describe("formatTranscript", () => {
  it("shows the newest steps that fit the quota and says which are left out", () => {
    const { markdown, shownSteps } = formatTranscript({
      thread,
      task: "Do it.",
      steps: [step(1, "a".repeat(300)), step(2, "b".repeat(300))],
      quota: 500,
    });
    expect(shownSteps).toBe(1);
    expect(markdown).toContain("Steps 1–1 are not shown (over the 500-character quota)");
    expect(markdown).toContain("b".repeat(300));
  });

  it("cuts a newest step bigger than the whole quota, with a note saying where to read it all", () => {
    const { markdown, shownSteps } = formatTranscript({
      thread,
      task: "Do it.",
      steps: [step(1, "a".repeat(100)), step(2, "b".repeat(1_000_000))],
      quota: 1000,
    });
    expect(shownSteps).toBe(1);
    expect(markdown.length).toBeLessThan(2000);
    expect(markdown).toMatch(
      /> Step 2 is cut at the 1000-character quota \(\d+ more characters\); see it whole with `uwf show 00000000000S2`\./,
    );
  });

  it("closes a code fence the cut leaves open", () => {
    const { markdown } = formatTranscript({
      thread,
      task: "Do it.",
      steps: [step(1, "", { summary: "x".repeat(5000) })],
      quota: 500,
    });
    const fences = markdown.split("\n").filter((line) => line.startsWith("```"));
    expect(fences.length % 2).toBe(0);
    expect(markdown.trimEnd().split("\n").at(-1)).toStartWith("> Step 1 is cut");
  });

  it("cuts a task bigger than the quota", () => {
    const { markdown } = formatTranscript({ thread, task: "t".repeat(100_000), steps: [], quota: 1000 });
    expect(markdown.length).toBeLessThan(2000);
    expect(markdown).toContain("> The task is cut at the 1000-character quota (99000 more characters)");
  });
});
