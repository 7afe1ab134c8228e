import { describe, expect, it } from "bun:test";
import { stepResultSchema } from "@uwf/protocol";
import { fixtureAgentsConfig, LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome({ setUp: (home) => home.writeConfig(fixtureAgentsConfig(["one-second"]).join("\n")) });

describe("UWF_TRACE", () => {
  it("prints a step's phases in order on stderr, with rising times, and leaves stdout alone", async () => {
    const thread = (await temp.uwf(["start", LINEAR, "-p", "Write hello.txt", "--json"])).json<{ thread: string }>()
      .thread;
    const traced = await temp.uwf(["step", thread, "--agent", SCRIPTED, "--json"], { env: { UWF_TRACE: "1" } });
    expect(traced.exitCode).toBe(0);
    expect(stepResultSchema.parse(traced.json()).steps).toHaveLength(1);
    const lines = traced.stderr.trim().split("\n");
    const phases = lines.map((line) => /^uwf trace: (\d+\.\d) ms (.+)$/.exec(line));
    expect(phases.every((match) => match !== null)).toBe(true);
    const names = phases.map((match) => match?.[2]);
    // The CLI's own phases around the step's, whose order packages/engine/src/step/step-phases.test.ts checks.
    expect(names.slice(0, 6)).toEqual([
      "started",
      // A plain command line is read from the command table; commander is not loaded.
      "arguments read",
      "context ready",
      "step command loaded",
      "store open",
      "config loaded",
    ]);
    expect(names.slice(6, -3)).toHaveLength(9);
    expect([names[6], names.at(-4)]).toEqual(["lease taken", "chain index kept"]);
    expect(names.slice(-3)).toEqual(["command done", "store closed", "exit"]);
    const times = phases.map((match) => Number(match?.[1]));
    expect(times).toEqual([...times].sort((left, right) => left - right));
  });

  it("prints the CPU time used by each phase's end under UWF_TRACE=cpu: an agent's second of sleep is not in it", async () => {
    const thread = (await temp.uwf(["start", LINEAR, "-p", "Write hello.txt", "--json"])).json<{ thread: string }>()
      .thread;
    const began = performance.now();
    const traced = await temp.uwf(["step", thread, "--agent", "one-second"], { env: { UWF_TRACE: "cpu" } });
    expect(performance.now() - began).toBeGreaterThan(1_000);
    expect(traced.exitCode).toBe(0);
    const phases = traced.stderr
      .trim()
      .split("\n")
      .map((line) => /^uwf trace: (\d+\.\d) ms (.+)$/.exec(line));
    expect(phases.every((match) => match !== null)).toBe(true);
    const times = phases.map((match) => Number(match?.[1]));
    expect(times).toEqual([...times].sort((left, right) => left - right));
    // The agent slept a second while this process waited: its phase took far less CPU than that.
    const names = phases.map((match) => match?.[2]);
    const agentDone = names.indexOf("agent done, reply checked and routed");
    expect(agentDone).toBeGreaterThan(0);
    expect((times[agentDone] as number) - (times[agentDone - 1] as number)).toBeLessThan(500);
  });

  it("prints nothing when unset or 0", async () => {
    for (const env of [{}, { UWF_TRACE: "0" }] as Record<string, string>[]) {
      const listed = await temp.uwf(["list"], { env });
      expect(listed.exitCode).toBe(0);
      expect(listed.stderr).not.toContain("uwf trace");
    }
  });
});
