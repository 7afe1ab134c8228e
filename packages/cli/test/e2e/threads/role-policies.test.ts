import { describe, expect, it, setDefaultTimeout } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentRunNodeSchema, stepResultSchema, threadStepNodeSchema } from "@uwf/protocol";
import { writeWorkflow } from "../../../../../test/kit/workflow/write-workflow.ts";
import { parseEvents } from "../../helpers/cli-events.ts";
import { errorOf } from "../../helpers/error-of.ts";
import { useTempHome } from "../../helpers/temp-home.ts";

/**
 * Command agents that count their launches in `launches` (in the thread's cwd, the temp work dir) and
 * keep each prompt as `prompt.N`; launch N runs its script with $n set, then answers a valid plan.
 */
const AGENTS: Record<string, { script: string; timeout?: number }> = {
  // Fails its first two launches.
  flaky: { script: 'if [ "$n" -le 2 ]; then echo "failing $n" >&2; exit 1; fi' },
  broken: { script: "exit 4" },
  // Asleep past any deadline on its first launch; quick after.
  "first-sleeps": { script: 'if [ "$n" -eq 1 ]; then sleep 30; fi', timeout: 30 },
  // Takes 3 s, under its own 30 s timeout.
  slow: { script: "sleep 3", timeout: 30 },
  // Writes half a reply, then sleeps past the deadline on its first launch.
  halfway: { script: 'if [ "$n" -eq 1 ]; then echo "half of a plan"; sleep 30; fi', timeout: 30 },
};

// Agents that sleep to their deadlines, and processes started on a shared machine.
setDefaultTimeout(60_000);

const temp = useTempHome({
  setUp: (home) =>
    home.writeConfig(
      [
        // Config and worker retries say otherwise than the roles do: the roles' policies must win.
        "retries: 0",
        "worker: { retries: 0, backoffMs: 20, pollMs: 50 }",
        "agents:",
        ...Object.entries(AGENTS).flatMap(([name, { script, timeout }]) => {
          const body = `n=$(cat launches 2>/dev/null || echo 0); n=$((n+1)); echo $n > launches; cat > prompt.$n; ${script}; printf -- '---\\nplan: launch %s\\n---\\nPlanned.\\n' "$n"`;
          return [
            `  ${name}:`,
            "    command: sh",
            `    args: ["-c", ${JSON.stringify(body)}]`,
            ...(timeout === undefined ? [] : [`    timeout: ${timeout}`]),
          ];
        }),
      ].join("\n"),
    ),
});

/** A one-role workflow in the work dir whose role carries `policy` (YAML lines under the role). */
function workflowWith(policy: string): string {
  return writeWorkflow(temp.work, "policies", [
    "roles:",
    "  planner:",
    "    goal: Plan the work.",
    "    frontmatter:",
    "      type: object",
    "      properties: { plan: { type: string } }",
    "      required: [plan]",
    ...policy.split("\n").map((line) => `    ${line}`),
    "graph:",
    "  $START: [{ role: planner, prompt: Plan the task. }]",
    "  planner: [{ role: $END, prompt: Done. }]",
  ]);
}

const launches = () => Number(readFileSync(join(temp.work, "launches"), "utf8").trim());

async function runNode(address: string) {
  return agentRunNodeSchema.parse((await temp.uwf(["cas", "get", address])).json());
}

async function stepNode(address: string) {
  return threadStepNodeSchema.parse((await temp.uwf(["cas", "get", address])).json());
}

describe("per-role policies", () => {
  it("a role's timeout beats the agent's own, and --timeout beats the role's", async () => {
    const workflow = workflowWith("timeout: 1s");
    const stopped = await temp.uwf(["run", workflow, "-p", "Plan", "--agent", "slow", "--json"]);
    expect(stopped.exitCode).toBe(1);
    const error = errorOf(stopped.stderr);
    expect(error.code).toBe("agent-failed");
    // The agent takes 3 s, well within its own 30 s: the role's 1 s stopped it.
    expect(await runNode(String(error.data.run))).toMatchObject({ outcome: "timeout" });

    const flagged = await temp.uwf([
      "run",
      workflow,
      "-p",
      "Plan again",
      "--agent",
      "slow",
      "--timeout",
      "10",
      "--json",
    ]);
    expect(flagged.exitCode).toBe(0);
    expect(stepResultSchema.parse(flagged.json()).status).toBe("ended");
  });

  it("retries: a failed agent is launched again within the step, whoever runs it, config's retries notwithstanding", async () => {
    const workflow = workflowWith("retries: { max: 2, backoff: 100ms, on: [agent-failed] }");
    const ran = await temp.uwf(["run", workflow, "-p", "Plan", "--agent", "flaky", "--json"]);
    expect(ran.exitCode).toBe(0);
    expect(launches()).toBe(3);
    const [step] = stepResultSchema.parse(ran.json()).steps;
    expect(step?.output).toEqual({ plan: "launch 3" });
    const run = await runNode((await stepNode(step?.address ?? "")).run);
    expect(run.attempts.map((attempt) => attempt.exitCode)).toEqual([1, 1, 0]);
  });

  it("retries on timeout: an agent stopped at the role's deadline is launched again", async () => {
    const workflow = workflowWith("timeout: 1s\nretries: { max: 1, backoff: 100ms, on: [timeout] }");
    const ran = await temp.uwf(["run", workflow, "-p", "Plan", "--agent", "first-sleeps", "--json"]);
    expect(ran.exitCode).toBe(0);
    expect(launches()).toBe(2);
    const [step] = stepResultSchema.parse(ran.json()).steps;
    const run = await runNode((await stepNode(step?.address ?? "")).run);
    expect(run.attempts.map((attempt) => attempt.timedOut)).toEqual([true, false]);
  });

  it("a worker with --retries 0 still retries a role with retries:, and adds none of its own to them", async () => {
    const flaky = workflowWith("retries: { max: 2, backoff: 50ms, on: [agent-failed] }");
    const queued = await temp.uwf(["start", flaky, "-p", "Plan", "--queue", "--json"]);
    expect(queued.exitCode).toBe(0);
    const worked = await temp.uwf(["worker", "--once", "--retries", "0", "--agent", "flaky", "--jsonl"]);
    expect(worked.exitCode).toBe(0);
    expect(launches()).toBe(3);
    expect(parseEvents(worked.stdout).filter((event) => event.type === "thread-ended")).toHaveLength(1);

    // A role that gives up after one retry is failed by the worker at once, whatever its --retries say.
    writeFileSync(join(temp.work, "launches"), "0");
    const broken = workflowWith("retries: { max: 1, backoff: 50ms }");
    const thread = (await temp.uwf(["start", broken, "-p", "Plan", "--queue", "--json"])).json<{ thread: string }>()
      .thread;
    const failing = await temp.uwf([
      "worker",
      "--once",
      "--retries",
      "3",
      "--backoff-ms",
      "20",
      "--agent",
      "broken",
      "--jsonl",
    ]);
    expect(failing.exitCode).toBe(0);
    expect(launches()).toBe(2);
    const events = parseEvents(failing.stdout);
    expect(events.filter((event) => event.type === "step-retry")).toHaveLength(0);
    expect(events.filter((event) => event.type === "thread-failed")).toHaveLength(1);
    expect(await temp.showThread(thread)).toMatchObject({ status: "failed", failure: { code: "agent-failed" } });
  });

  it("onTimeout: suspend keeps what the agent wrote as the role's suspension, and resume -p runs the role again", async () => {
    const workflow = workflowWith("timeout: 1s\nonTimeout: suspend");
    const ran = await temp.uwf(["run", workflow, "-p", "Plan", "--agent", "halfway", "--json"]);
    expect(ran.exitCode).toBe(20);
    const result = stepResultSchema.parse(ran.json());
    const reason = "the agent ran out of time after 1s: resume to try again, or answer how to go on";
    expect(result).toMatchObject({ status: "suspended", next: "planner", reason });
    const [step] = result.steps;
    expect(step?.output).toEqual({ $status: "$SUSPEND", reason });
    const node = await stepNode(step?.address ?? "");
    const body = (await temp.uwf(["cas", "get", node.body])).json<{ text: string }>().text;
    expect(body).toContain("half of a plan");
    const run = await runNode(node.run);
    expect(run).toMatchObject({ outcome: "timeout" });
    expect(run.attempts[0]?.timedOut).toBe(true);

    const resumed = await temp.uwf([
      "resume",
      result.thread,
      "-p",
      "Take the short way.",
      "--agent",
      "halfway",
      "--json",
    ]);
    expect(resumed.exitCode).toBe(0);
    expect(stepResultSchema.parse(resumed.json())).toMatchObject({ status: "ended" });
    expect(await temp.showThread(result.thread)).toMatchObject({ status: "ended", stepCount: 2 });
    expect(readFileSync(join(temp.work, "prompt.2"), "utf8")).toContain("Take the short way.");
  });
});

it("a role with answer: whose agent ran out of time under onTimeout: suspend asks for text, not its typed answer", async () => {
  const workflow = workflowWith("timeout: 1s\nonTimeout: suspend\nanswer: approval");
  const ran = await temp.uwf(["run", workflow, "-p", "Plan", "--agent", "halfway", "--json"]);
  expect(ran.exitCode).toBe(20);
  const { thread } = stepResultSchema.parse(ran.json());
  const shown = await temp.showThread(thread);
  expect(shown.suspension).toMatchObject({ role: "planner", answerSchema: null, ask: {} });
  const typed = await temp.uwf(["resume", thread, "--answer", '{"approved": true}']);
  expect(typed.exitCode).toBe(2);
  expect(typed.stderr).toContain(
    "role planner's agent ran out of time, so the thread asks how to go on: give it with -p TEXT",
  );
  const resumed = await temp.uwf(["resume", thread, "-p", "Take the short way.", "--agent", "halfway", "--json"]);
  expect(resumed.exitCode).toBe(0);
  expect(await temp.showThread(thread)).toMatchObject({ status: "ended", stepCount: 2 });
});
