import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { threadStepNodeSchema } from "@uwf/protocol";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import { AgentFailedError, stepThread } from "../index.ts";

/** A worker whose `$status` picks its edge (or a condition ends the thread); a reviewer after it. */
const WORKFLOW = `name: review-loop
roles:
  worker:
    goal: Do the work and say whether it is ready for review.
    frontmatter:
      type: object
      properties:
        summary: { type: string }
        gaveUp: { type: boolean }
      required: [summary]
  reviewer:
    goal: Review the work.
conditions:
  gave_up:
    description: The worker gave up
    expression: "steps[-1].output.gaveUp = true"
graph:
  $START:
    - { role: worker, prompt: "Do the task." }
  worker:
    - { role: reviewer, status: approved, prompt: "Review: {{ summary }}" }
    - { role: worker, status: rejected, prompt: "Try again." }
    # A condition edge besides the status edges: the reply schema cannot list every $status that routes.
    - { role: $END, condition: gave_up, prompt: "Stopped." }
  reviewer:
    - { role: $END, prompt: "Done." }
`;
const NOWHERE = "---\n$status: nowhere\nsummary: Wrote hello.txt\n---\nFirst try.\n";
const APPROVED = "---\n$status: approved\nsummary: Wrote hello.txt\n---\nSecond try.\n";

let kit: EngineTestKit;
let workflow: string;
beforeEach(() => {
  kit = createEngineTestKit({ config: { retries: 2 } });
  workflow = join(kit.home, "review-loop.yaml");
  writeFileSync(workflow, WORKFLOW);
});
afterEach(() => kit.cleanup());

describe("routing a reply before its step is committed", () => {
  it("asks again when the reply's $status has no edge, naming the statuses that have one, then fails with the head unchanged", async () => {
    const record = await kit.startThread({ workflow });
    const agent = kit.scriptedAgent([{ role: "worker", reply: NOWHERE }]);
    const error = await stepThread(kit.stepOptions(record.id, { defaultAgent: agent })).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AgentFailedError);
    const run = await kit.runNode(String((error as AgentFailedError).data.run));
    expect(run.outcome).toBe("invalid");
    expect(run.attempts).toHaveLength(3);
    for (const attempt of run.attempts) {
      expect(attempt.error).toContain('$status "nowhere" has no edge from role worker');
      expect(attempt.error).toContain("the edges answer: approved, rejected");
    }
    expect(await kit.textOf(run.attempts[1]?.request ?? "")).toContain(`Problem: ${run.attempts[0]?.error}`);
    expect(await kit.store.refs.getThread(record.id)).toMatchObject({
      head: record.head,
      next: "worker",
      stepCount: 0,
      status: "failed",
    });
  });

  it("accepts a reply fixed on retry and moves the thread where its $status leads", async () => {
    const record = await kit.startThread({ workflow });
    const agent = kit.scriptedAgent([{ role: "worker", reply: [NOWHERE, APPROVED] }]);
    const stepped = await stepThread(kit.stepOptions(record.id, { defaultAgent: agent }));
    if (stepped.kind !== "stepped") throw new Error(`expected a step, got ${stepped.kind}`);
    expect(stepped.record).toMatchObject({ status: "active", next: "reviewer", stepCount: 1 });
    expect(stepped.step.status).toBe("approved");
    const run = await kit.runNode(threadStepNodeSchema.parse(await kit.store.objects.get(stepped.step.address)).run);
    expect(run.attempts.map((attempt) => attempt.error === null)).toEqual([false, true]);
    expect(await kit.textOf(run.attempts[1]?.reply ?? "")).toContain("Second try.");
  });
});
