import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { shownThreadSchema, stepResultSchema } from "@uwf/protocol";
import { runOfStep } from "../../helpers/cas-nodes.ts";
import { FIXTURES, LINEAR, useTempHome } from "../../helpers/temp-home.ts";

const AGENT = join(FIXTURES, "agents/reports-usage.sh");

const temp = useTempHome({
  setUp: (home) => home.writeConfig(`defaultAgent: cli\nagents:\n  cli: { command: "${AGENT}" }\n`),
});

describe("a command agent's usage file (UWF_USAGE_FILE)", () => {
  it("is recorded in the agent run and counted in show and log totals", async () => {
    const ran = await temp.uwf(["run", LINEAR, "-p", "Go", "--json"]);
    expect(ran.stderr).toBe("");
    expect(ran.exitCode).toBe(0);
    const result = stepResultSchema.parse(ran.json());
    const perStep = { inputTokens: 1_000, outputTokens: 200, cacheReadTokens: 50, cacheWriteTokens: 0, costUsd: 0.003 };
    expect(result.steps.map((step) => step.usage)).toEqual([perStep, perStep]);
    const run = await runOfStep(temp, result.steps[0]?.address ?? "");
    expect(run.usage).toEqual(perStep);
    expect(run.attempts[0]?.modelUsage).toEqual({ "some-cli-model": perStep });

    const shown = shownThreadSchema.parse((await temp.uwf(["show", result.thread, "--json"])).json());
    expect(shown.usage).toEqual({
      ...perStep,
      inputTokens: 2_000,
      outputTokens: 400,
      cacheReadTokens: 100,
      costUsd: 0.006,
    });
    expect((await temp.uwf(["show", result.thread])).stdout).toContain("2,000 in · 400 out · $0.0060");
    expect((await temp.uwf(["log", result.thread])).stdout).toContain("1,000 in · 200 out · $0.0030");
  }, 60_000);

  it("stops a thread at --max-cost like a built-in agent's usage", async () => {
    const ran = await temp.uwf(["run", LINEAR, "-p", "Go", "--max-cost", "0.002", "--json"]);
    expect(ran.exitCode).toBe(20);
    const result = stepResultSchema.parse(ran.json());
    expect(result.steps.map((step) => step.role)).toEqual(["planner"]);
    expect(result.budget).toMatchObject({ exceeded: "maxCostUsd", spent: { steps: 1, costUsd: 0.003 } });
  }, 60_000);

  it("when malformed, is a warning on stderr and recorded as such, never a failed step", async () => {
    const ran = await temp.uwf(["run", LINEAR, "-p", "Go", "--json"], { env: { USAGE: "malformed" } });
    expect(ran.exitCode).toBe(0);
    const problem = '"input_tokens": expected an integer ≥ 0, got "lots"';
    expect(ran.stderr).toContain(
      `warning: the agent's usage file (UWF_USAGE_FILE) is malformed and was not counted: ${problem}`,
    );
    const result = stepResultSchema.parse(ran.json());
    expect(result.status).toBe("ended");
    const run = await runOfStep(temp, result.steps[0]?.address ?? "");
    expect(run.usage).toBeNull();
    expect(run.attempts[0]?.usageProblem).toBe(problem);
  }, 60_000);
});
