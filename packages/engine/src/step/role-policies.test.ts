import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { threadStepNodeSchema } from "@uwf/protocol";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import { AgentFailedError, resumeThread, stepThread } from "../index.ts";

let kit: EngineTestKit;
beforeEach(() => {
  // Config's own retries say otherwise than the roles do: the roles' policies must win.
  kit = createEngineTestKit({ config: { retries: 0 } });
});
afterEach(() => kit.cleanup());

/** A one-role workflow whose role carries `policy` (YAML lines under the role). */
function workflowWith(policy: string): string {
  const file = join(kit.home, `policy-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    file,
    `name: policies
roles:
  planner:
    goal: Plan the work.
    frontmatter:
      type: object
      properties:
        plan: { type: string }
      required: [plan]
${policy
  .trim()
  .split("\n")
  .map((line) => `    ${line}`)
  .join("\n")}
graph:
  $START:
    - { role: planner, prompt: "Plan the task." }
  planner:
    - { role: $END, prompt: "Done." }
`,
  );
  return file;
}

/**
 * A command agent that counts its launches in a file; launch n runs `script(n)` (sh, with $n set),
 * anything else answers a valid plan.
 */
function countingAgent(name: string, script: string, timeout?: number): string {
  const counter = join(kit.home, `${name}.count`);
  const body = `n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${counter}; cat >/dev/null; ${script}; printf -- '---\\nplan: launch %s\\n---\\nPlanned.\\n' "$n"`;
  kit.config.agents = {
    ...kit.config.agents,
    [name]: { command: "sh", args: ["-c", body], ...(timeout === undefined ? {} : { timeout }) },
  };
  return name;
}

async function stepError(threadId: string, agent: string): Promise<unknown> {
  return stepThread(kit.stepOptions(threadId, { defaultAgent: agent })).catch((thrown: unknown) => thrown);
}

describe("a role's retries", () => {
  it("launches a failed agent again, after its backoff, until it succeeds, every attempt kept", async () => {
    const record = await kit.startThread({
      workflow: workflowWith("retries: { max: 2, backoff: 50ms, on: [agent-failed] }"),
    });
    const agent = countingAgent("flaky", 'if [ "$n" -le 2 ]; then echo "failing $n"; exit 1; fi');
    const started = Date.now();
    const stepped = await stepThread(kit.stepOptions(record.id, { defaultAgent: agent }));
    if (stepped.kind !== "stepped") throw new Error(`expected a step, got ${stepped.kind}`);
    // 50 ms before the first relaunch, 100 ms before the second.
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(stepped.step.output).toEqual({ plan: "launch 3" });
    const run = await kit.runNode(threadStepNodeSchema.parse(await kit.store.objects.get(stepped.step.address)).run);
    expect(run.outcome).toBe("ok");
    expect(run.attempts.map((attempt) => attempt.exitCode)).toEqual([1, 1, 0]);
    expect(await kit.textOf(run.attempts[0]?.reply ?? "")).toContain("failing 1");
  });

  it("gives up after max retries, and tells a worker the role's policy was the whole policy", async () => {
    const record = await kit.startThread({ workflow: workflowWith("retries: { max: 1, backoff: 10ms }") });
    const agent = countingAgent("broken", "exit 4");
    const error = await stepError(record.id, agent);
    expect(error).toBeInstanceOf(AgentFailedError);
    expect((error as AgentFailedError).retriedByRole).toBe(true);
    expect((error as AgentFailedError).message).toContain("(2 attempts)");
    const run = await kit.runNode(String((error as AgentFailedError).data.run));
    expect(run.attempts.map((attempt) => attempt.exitCode)).toEqual([4, 4]);
    expect(await kit.store.refs.getThread(record.id)).toMatchObject({ status: "failed", head: record.head });
  });

  it("does not relaunch for a trigger it does not list, and then sends no invalid reply back", async () => {
    const failed = await kit.startThread({ workflow: workflowWith("retries: { max: 3, on: [timeout] }") });
    const error = await stepError(failed.id, countingAgent("fails", "exit 1"));
    expect(error).toBeInstanceOf(AgentFailedError);
    expect((await kit.runNode(String((error as AgentFailedError).data.run))).attempts).toHaveLength(1);

    // Config allows two replies sent back; a role that retries only failed agents sends none.
    kit.config.retries = 2;
    const invalid = await kit.startThread({ workflow: workflowWith("retries: { max: 3, on: [agent-failed] }") });
    const agent = kit.scriptedAgent([{ role: "planner", reply: ["no frontmatter", "---\nplan: x\n---\n"] }]);
    const refused = await stepError(invalid.id, agent);
    expect(refused).toBeInstanceOf(AgentFailedError);
    const run = await kit.runNode(String((refused as AgentFailedError).data.run));
    expect(run.outcome).toBe("invalid");
    expect(run.attempts).toHaveLength(1);
  });

  it("sends an invalid reply back max times when it lists invalid-reply, over config's retries", async () => {
    const record = await kit.startThread({ workflow: workflowWith("retries: { max: 2, on: [invalid-reply] }") });
    const agent = kit.scriptedAgent([{ role: "planner", reply: ["one", "two", "---\nplan: third\n---\n"] }]);
    const stepped = await stepThread(kit.stepOptions(record.id, { defaultAgent: agent }));
    if (stepped.kind !== "stepped") throw new Error(`expected a step, got ${stepped.kind}`);
    expect(stepped.step.output).toEqual({ plan: "third" });
  });

  it("relaunches an agent that timed out, each attempt with the whole deadline", async () => {
    const record = await kit.startThread({
      workflow: workflowWith("timeout: 1\nretries: { max: 1, backoff: 10ms, on: [timeout] }"),
    });
    // The first launch sleeps past the deadline; the second takes 0.6 s, which a shared deadline would not leave.
    const agent = countingAgent("slow", 'if [ "$n" -eq 1 ]; then sleep 30; fi; sleep 0.6', 30);
    const stepped = await stepThread(kit.stepOptions(record.id, { defaultAgent: agent }));
    if (stepped.kind !== "stepped") throw new Error(`expected a step, got ${stepped.kind}`);
    const run = await kit.runNode(threadStepNodeSchema.parse(await kit.store.objects.get(stepped.step.address)).run);
    expect(run.attempts.map((attempt) => attempt.timedOut)).toEqual([true, false]);
  });
});

describe("a role's timeout", () => {
  it("beats the agent's own, and --timeout beats the role's", async () => {
    const workflow = workflowWith("timeout: 1s");
    const agent = countingAgent("sleeper", "sleep 3", 30);
    const record = await kit.startThread({ workflow });
    const started = Date.now();
    const error = await stepError(record.id, agent);
    expect(error).toBeInstanceOf(AgentFailedError);
    expect(Date.now() - started).toBeLessThan(2500);
    const run = await kit.runNode(String((error as AgentFailedError).data.run));
    expect(run).toMatchObject({ outcome: "timeout" });

    const flagged = await kit.startThread({ workflow });
    const stepped = await stepThread(kit.stepOptions(flagged.id, { defaultAgent: agent, timeoutSeconds: 10 }));
    expect(stepped.kind).toBe("stepped");
  });
});

describe("onTimeout: suspend", () => {
  it("records the role's suspension with what the agent wrote, and the answer re-runs the role", async () => {
    const record = await kit.startThread({ workflow: workflowWith("timeout: 1s\nonTimeout: suspend") });
    const agent = countingAgent("halfway", 'if [ "$n" -eq 1 ]; then echo "half of a plan"; sleep 30; fi');
    const stepped = await stepThread(kit.stepOptions(record.id, { defaultAgent: agent }));
    if (stepped.kind !== "stepped") throw new Error(`expected a step, got ${stepped.kind}`);
    const reason = "the agent ran out of time after 1s: resume to try again, or answer how to go on";
    expect(stepped.record).toMatchObject({ status: "suspended", next: "planner", reason, stepCount: 1 });
    expect(stepped.step.output).toEqual({ $status: "$SUSPEND", reason });
    const node = threadStepNodeSchema.parse(await kit.store.objects.get(stepped.step.address));
    expect(await kit.textOf(node.body)).toContain("half of a plan");
    const run = await kit.runNode(node.run);
    expect(run).toMatchObject({ outcome: "timeout" });
    expect(run.attempts[0]?.timedOut).toBe(true);

    const resumed = await resumeThread({ ...kit.stepOptions(record.id, { defaultAgent: agent }), answer: "Go on." });
    if (resumed.kind !== "stepped") throw new Error(`expected a step, got ${resumed.kind}`);
    expect(resumed.record).toMatchObject({ status: "ended", stepCount: 2 });
    expect(resumed.step.output).toEqual({ plan: "launch 2" });
  });

  it("fails the thread by default, as any timeout", async () => {
    const record = await kit.startThread({ workflow: workflowWith("timeout: 1s\nonTimeout: fail") });
    const error = await stepError(record.id, countingAgent("stuck", "sleep 30"));
    expect(error).toBeInstanceOf(AgentFailedError);
    expect(await kit.store.refs.getThread(record.id)).toMatchObject({ status: "failed", stepCount: 0 });
  });
});
