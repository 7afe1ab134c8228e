import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEngineTestKit, type EngineTestKit, type ScenarioEntry } from "../../test/engine-test-kit.ts";
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
});
