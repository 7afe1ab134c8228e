import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { threadStepNodeSchema } from "@uwf/protocol";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import { AgentFailedError, stepThread } from "../index.ts";

const VALID_PLAN = "---\nplan: write hello.txt\n---\nI will write hello.txt.\n";

let kit: EngineTestKit;
beforeEach(() => {
  kit = createEngineTestKit({ config: { retries: 2 } });
});
afterEach(() => kit.cleanup());

/** The step's error, which the test expects to be an AgentFailedError. */
async function failedStep(threadId: string, agent: string): Promise<AgentFailedError> {
  const error = await stepThread(kit.stepOptions(threadId, { defaultAgent: agent })).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(AgentFailedError);
  return error as AgentFailedError;
}

describe("a step's retries", () => {
  it("asks again with the exact problem, quoting the reply, and commits the fixed reply", async () => {
    const record = await kit.startThread();
    const agent = kit.scriptedAgent([{ role: "planner", reply: ["I forgot the frontmatter.", VALID_PLAN] }]);
    const stepped = await stepThread(kit.stepOptions(record.id, { defaultAgent: agent }));
    if (stepped.kind !== "stepped") throw new Error(`expected a step, got ${stepped.kind}`);
    expect(stepped.step.output).toEqual({ plan: "write hello.txt" });

    const node = threadStepNodeSchema.parse(await kit.store.objects.get(stepped.step.address));
    const run = await kit.runNode(node.run);
    expect(run.outcome).toBe("ok");
    expect(run.attempts).toHaveLength(2);
    const [rejected, accepted] = run.attempts;
    expect(rejected?.error).toContain("frontmatter");
    expect(accepted?.error).toBeNull();
    expect(await kit.textOf(rejected?.reply ?? "")).toBe("I forgot the frontmatter.");
    const retryRequest = await kit.textOf(accepted?.request ?? "");
    expect(retryRequest).toContain(
      `Problem: ${rejected?.error}\n\nYour reply began (no frontmatter was found):\n\n\`\`\`text\nI forgot the frontmatter.\n\`\`\``,
    );
  });

  it("asks again when the fields miss what the role's schema requires", async () => {
    const record = await kit.startThread();
    const agent = kit.scriptedAgent([{ role: "planner", reply: ["---\nidea: none\n---\nHm.\n", VALID_PLAN] }]);
    const stepped = await stepThread(kit.stepOptions(record.id, { defaultAgent: agent }));
    if (stepped.kind !== "stepped") throw new Error(`expected a step, got ${stepped.kind}`);
    const run = await kit.runNode(threadStepNodeSchema.parse(await kit.store.objects.get(stepped.step.address)).run);
    expect(run.attempts.map((attempt) => attempt.error === null)).toEqual([false, true]);
    expect(run.attempts[0]?.error).toContain("plan");
  });

  it("keeps every raw reply of a run that stays invalid, moves no head, and sets the thread failed with that run", async () => {
    const record = await kit.startThread();
    const error = await failedStep(record.id, kit.scriptedAgent([{ role: "planner", reply: "still no frontmatter" }]));
    expect(error.code).toBe("agent-failed");
    const runAddress = String(error.data.run);
    const run = await kit.runNode(runAddress);
    expect(run.outcome).toBe("invalid");
    // The first attempt and the two retries config.yaml allows, each reply kept as the agent wrote it.
    expect(run.attempts).toHaveLength(3);
    for (const attempt of run.attempts) {
      expect(await kit.textOf(attempt.reply ?? "")).toBe("still no frontmatter");
      expect(attempt.error).toContain("frontmatter");
    }
    const after = await kit.store.refs.getThread(record.id);
    expect(after).toMatchObject({
      head: record.head,
      stepCount: 0,
      status: "failed",
      failure: { code: "agent-failed", run: runAddress, attempts: 1 },
    });

    // The thread is still steppable, and an agent that answers makes it active again.
    const retried = await stepThread(kit.stepOptions(record.id));
    expect(retried.record).toMatchObject({ status: "active", stepCount: 1, next: "doer" });
    expect(retried.record).not.toHaveProperty("failure");
  });

  it("does not ask again when the agent itself fails, and keeps the failed run", async () => {
    kit.config.agents = { exits3: { command: "sh", args: ["-c", "cat >/dev/null; echo partial; exit 3"] } };
    const record = await kit.startThread();
    const error = await failedStep(record.id, "exits3");
    const run = await kit.runNode(String(error.data.run));
    expect(run.outcome).not.toBe("ok");
    expect(run.attempts).toHaveLength(1);
    expect(run.attempts[0]?.exitCode).toBe(3);
    expect(await kit.textOf(run.attempts[0]?.reply ?? "")).toContain("partial");
    expect((await kit.store.refs.getThread(record.id))?.head).toBe(record.head);
  });
});
