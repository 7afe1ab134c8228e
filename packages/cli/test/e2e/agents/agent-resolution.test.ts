import { describe, expect, it } from "bun:test";
import { errorOf } from "../../helpers/error-of.ts";
import { LINEAR, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome();

/** The thread's record before and after a refused step: nothing moved, not even updatedAt. */
async function expectUnchanged(thread: string, step: () => Promise<void>) {
  const before = await temp.showThread(thread);
  await step();
  expect(await temp.showThread(thread)).toEqual(before);
  const failed = (await temp.uwf(["list", "--status", "failed", "--json"])).json<{ threads: unknown[] }>();
  expect(failed.threads).toEqual([]);
}

describe("an agent that cannot be resolved is refused before the step, leaving the thread as it was", () => {
  it("refuses an unknown --agent with exit 2 (usage), on step and run", async () => {
    temp.writeConfig("agents:\n  real:\n    command: cat\n");
    const thread = await temp.startThread(LINEAR);
    await expectUnchanged(thread, async () => {
      const step = await temp.uwf(["step", thread, "--agent", "nope", "--json"]);
      expect(step.exitCode).toBe(2);
      expect(errorOf(step.stderr)).toMatchObject({ code: "usage" });
      expect(errorOf(step.stderr).message).toBe(
        'unknown agent "nope" (from --agent); known agents: real, or scripted:FILE',
      );
      const plain = await temp.uwf(["step", thread, "--agent", "nope"]);
      expect(plain.exitCode).toBe(2);
      expect(plain.stderr).toBe('uwf: unknown agent "nope" (from --agent); known agents: real, or scripted:FILE\n');
      expect((await temp.uwf(["step", thread, "--all", "--agent", "nope"])).exitCode).toBe(2);
    });
    // `run` refuses before it starts a thread.
    const run = await temp.uwf(["run", LINEAR, "-p", "x", "--agent", "nope"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('unknown agent "nope" (from --agent)');
    expect((await temp.uwf(["list", "--json"])).json<{ threads: unknown[] }>().threads).toHaveLength(1);
  }, 60_000);

  it("refuses a step with no agent configured with exit 1 (no-agent)", async () => {
    const thread = await temp.startThread(LINEAR);
    await expectUnchanged(thread, async () => {
      const step = await temp.uwf(["step", thread, "--json"]);
      expect(step.exitCode).toBe(1);
      expect(errorOf(step.stderr).code).toBe("no-agent");
    });
  }, 60_000);

  it("refuses a config alias that names no agent with exit 1 (unknown-agent)", async () => {
    temp.writeConfig("agents:\n  real:\n    command: cat\nagentOverrides:\n  linear:\n    planner: ghost\n");
    const thread = await temp.startThread(LINEAR);
    await expectUnchanged(thread, async () => {
      const step = await temp.uwf(["step", thread, "--agent", "real", "--json"]);
      expect(step.exitCode).toBe(1);
      expect(errorOf(step.stderr)).toMatchObject({ code: "unknown-agent", data: { alias: "ghost" } });
    });
  }, 60_000);
});
