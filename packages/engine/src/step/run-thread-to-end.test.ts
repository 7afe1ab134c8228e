import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEngineTestKit, type EngineTestKit, FIXTURES, type ScenarioEntry } from "../../test/engine-test-kit.ts";
import { runThreadToEnd } from "./run-thread-to-end.ts";

/** A role that may suspend to ask; its answer ends the thread. */
const ASK_WORKFLOW = `name: ask
description: A role that may pause to ask the user
roles:
  asker:
    goal: Answer, or ask the user when unsure.
    frontmatter:
      type: object
      properties:
        answer: { type: string }
graph:
  $START:
    - { role: asker, prompt: "Answer the question." }
  asker:
    - { role: $END, prompt: "Thanks." }
`;

let kit: EngineTestKit;

beforeEach(() => {
  kit = createEngineTestKit();
});

afterEach(() => kit.cleanup());

/** A thread of the ask workflow, and a scenario that suspends once, then answers; `answer` is recorded for the resumption, or not. */
async function askThread(answer: string | null) {
  const workflow = join(kit.home, "ask.yaml");
  writeFileSync(workflow, ASK_WORKFLOW);
  const entries: (ScenarioEntry & { answer?: string })[] = [
    { role: "asker", output: { $status: "$SUSPEND", reason: "Which colour?" }, body: "I need the colour." },
    { role: "asker", output: { answer: "blue" }, body: "Blue it is.", ...(answer === null ? {} : { answer }) },
  ];
  const agent = kit.scriptedAgent(entries);
  const record = await kit.startThread({ workflow, prompt: "Paint it" });
  return { record, step: { ...kit.stepOptions(record.id), defaultAgent: agent } };
}

describe("runThreadToEnd", () => {
  it("reports each round with its thread and view: the suspension, the recorded answer, the end", async () => {
    const { record, step } = await askThread("The blue one.");
    const rounds: [string, string[], string, boolean][] = [];
    const resumed: [string, number][] = [];
    const done = await runThreadToEnd({
      ...step,
      baseDir: kit.home,
      view: { suspension: true },
      onRecordedResume: (thread, number) => void resumed.push([thread, number]),
      onRound: (thread, round) => {
        rounds.push([
          thread,
          round.steps.map((summary) => summary.role),
          round.record.status,
          round.view !== undefined,
        ]);
      },
    });
    expect(done.error).toBeUndefined();
    expect(rounds).toEqual([
      [record.id, ["asker"], "suspended", true],
      [record.id, ["asker"], "ended", true],
    ]);
    expect(resumed).toEqual([[record.id, 2]]);
    expect(done.steps.map((summary) => summary.role)).toEqual(["asker", "asker"]);
    expect(done.record.status).toBe("ended");
    expect(done.view?.record.status).toBe("ended");
  });

  it("stops at a suspension its scenario records no answer for, after one round", async () => {
    const { step } = await askThread(null);
    const rounds: string[] = [];
    const done = await runThreadToEnd({
      ...step,
      baseDir: kit.home,
      onRound: (_thread, round) => void rounds.push(round.record.status),
    });
    expect(rounds).toEqual(["suspended"]);
    expect(done.record.status).toBe("suspended");
    expect(done.view).toBeUndefined();
  });

  describe("with a branch whose recorded answer leads to a step that fails", () => {
    /**
     * review-fan-out.yaml run to its end: the security reviewer asks, and its answer leads to a reply that
     * never validates. Each round as [parent or branch, status, with an error], and the branches whose step
     * failed as onBranchStepFailed heard them.
     */
    async function runFanOutThread(stopWhenABranchFails?: boolean) {
      const entries: (ScenarioEntry & { answer?: string })[] = [
        { role: "planner", output: { $status: "ready", plan: "cache the session" }, body: "Plan ready." },
        { role: "reviewer", branch: "security", output: { $status: "$SUSPEND", reason: "Which store?" }, body: "?" },
        { role: "reviewer", branch: "security", reply: "no frontmatter at all", answer: "The session store." },
        { role: "reviewer", branch: "speed", output: { $status: "approve", verdict: "fast" }, body: "One lookup." },
        { role: "reviewer", branch: "style", output: { $status: "approve", verdict: "tidy" }, body: "Reads well." },
      ];
      const agent = kit.scriptedAgent(entries);
      const record = await kit.startThread({ workflow: join(FIXTURES, "review-fan-out.yaml"), prompt: "Cache it" });
      const rounds: [string, string, boolean][] = [];
      const failed: string[] = [];
      const done = await runThreadToEnd({
        ...kit.stepOptions(record.id),
        defaultAgent: agent,
        baseDir: kit.home,
        ...(stopWhenABranchFails === undefined ? {} : { stopWhenABranchFails }),
        onRound: (thread, round) =>
          void rounds.push([
            thread === record.id ? "parent" : "branch",
            round.record.status,
            round.error !== undefined,
          ]),
        onBranchStepFailed: (thread) => void failed.push(thread),
      });
      return { record, done, rounds, failed };
    }

    it("ends the run with the branch's error when asked to (stopWhenABranchFails)", async () => {
      const { done, rounds, failed } = await runFanOutThread(true);
      expect(rounds).toEqual([
        ["parent", "waiting", false],
        ["branch", "suspended", true],
      ]);
      expect(done.error).toBeDefined();
      expect(done.record.branchOf?.branch).toBe("security");
      expect(done.steps.map((summary) => summary.role)).toEqual(["planner"]);
      expect(failed).toEqual([]);
    });

    it("tells onBranchStepFailed and goes on with the parent otherwise", async () => {
      const { record, done, rounds, failed } = await runFanOutThread();
      expect(rounds.slice(0, 2)).toEqual([
        ["parent", "waiting", false],
        ["branch", "suspended", true],
      ]);
      expect(rounds[2]?.[0]).toBe("parent");
      expect(failed).toHaveLength(1);
      expect(done.record.id).toBe(record.id);
    });
  });
});
