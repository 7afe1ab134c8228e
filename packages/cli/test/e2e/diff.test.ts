import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { diffResultSchema, forkResultSchema, logResultSchema, startResultSchema } from "@uwf/protocol";
import { createTempHome, LINEAR, SCRIPTED, type TempHome } from "../helpers/temp-home.ts";

let temp: TempHome;
beforeEach(() => {
  temp = createTempHome();
});
afterEach(() => temp.cleanup());

/** A linear thread run to its end: planner ("write hello.txt"), then doer. */
async function finishedThread(prompt = "The task"): Promise<{ thread: string; planner: string; doer: string }> {
  const started = await temp.uwf(["start", LINEAR, "-p", prompt, "--json"]);
  const thread = startResultSchema.parse(started.json()).thread;
  expect((await temp.uwf(["step", thread, "--all", "--agent", SCRIPTED])).exitCode).toBe(0);
  const [planner, doer] = logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json()).steps;
  if (planner === undefined || doer === undefined) throw new Error("expected two steps");
  return { thread, planner: planner.address, doer: doer.address };
}

async function diff(...args: string[]) {
  const run = await temp.uwf(["diff", ...args, "--json"]);
  expect(run.stderr).toBe("");
  expect(run.exitCode).toBe(0);
  return diffResultSchema.parse(run.json());
}

describe("uwf diff", () => {
  it("shows a counterfactual fork's replaced step as the first difference, with the bodies' diff", async () => {
    const original = await finishedThread();
    const reply = join(temp.work, "reply.md");
    await Bun.write(reply, "---\nplan: write bye.txt\n---\nI will write bye.txt instead.\n");
    const fork = forkResultSchema.parse(
      (await temp.uwf(["fork", original.planner, "--output", reply, "--json"])).json(),
    ).thread;
    expect((await temp.uwf(["step", fork, "--all", "--agent", SCRIPTED])).exitCode).toBe(0);

    const result = await diff(original.thread, fork, "--bodies");
    expect(result.sameStart).toBe(true);
    expect(result.commonSteps).toBe(0);
    expect(result.commonAddress).toBe(result.left.start);
    const [first, second] = result.steps;
    expect(first?.left?.address).toBe(original.planner);
    expect(first?.right?.role).toBe("planner");
    expect(first?.fields).toEqual([
      { field: "plan", change: "changed", left: "write hello.txt", right: "write bye.txt" },
    ]);
    expect(first?.bodyDiff).toContain("-I will write hello.txt.");
    expect(first?.bodyDiff).toContain("+I will write bye.txt instead.");
    // The doer steps report the same fields (the scripted agent's), so only their addresses differ.
    expect(second?.fields).toEqual([]);
    expect(second?.bodyDiff).toBe("");
    expect(result.totals.left).toMatchObject({ steps: 2, status: "ended" });
    expect(result.totals.right).toMatchObject({ steps: 2, status: "ended" });

    const text = await temp.uwf(["diff", original.thread, fork]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain('plan: "write hello.txt" → "write bye.txt"');
    expect(text.stdout).not.toContain("+I will write");
  });

  it("compares a thread with its own ancestor step: only the later steps, on one side", async () => {
    const original = await finishedThread();
    const result = await diff(original.thread, original.planner);
    expect(result.left.thread).toBe(original.thread);
    expect(result.right).toMatchObject({ thread: null, head: original.planner });
    expect(result.commonSteps).toBe(1);
    expect(result.commonAddress).toBe(original.planner);
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]).toMatchObject({ number: 2, right: null, fields: [{ field: "done", change: "removed" }] });
    expect(result.steps[0]?.left?.address).toBe(original.doer);
    expect(result.totals.right).toMatchObject({ steps: 1, status: null });
  });

  it("compares threads with no common step from step 1", async () => {
    const one = await finishedThread("One task");
    const other = await finishedThread("Another task");
    const result = await diff(one.thread, other.thread);
    expect(result.sameStart).toBe(false);
    expect(result.commonSteps).toBe(0);
    expect(result.commonAddress).toBeNull();
    expect(result.steps.map((step) => [step.number, step.left?.role, step.right?.role])).toEqual([
      [1, "planner", "planner"],
      [2, "doer", "doer"],
    ]);
    const text = await temp.uwf(["diff", one.thread, other.thread]);
    expect(text.stdout).toContain("no common step");
  });

  it("says a thread is the same as itself, and names a reference it cannot find", async () => {
    const original = await finishedThread();
    const same = await diff(original.thread, original.doer);
    expect(same.steps).toEqual([]);
    expect(same.commonSteps).toBe(2);

    const missing = await temp.uwf(["diff", original.thread, "NOSUCHTHREAD"]);
    expect(missing.exitCode).not.toBe(0);
    expect(missing.stderr).toContain("NOSUCHTHREAD");
    const run = (await temp.uwf(["show", original.planner, "--json"])).json() as { node: { output: string } };
    const notAThreadNode = await temp.uwf(["diff", original.thread, run.node.output]);
    expect(notAThreadNode.exitCode).toBe(2);
    expect(notAThreadNode.stderr).toContain("diff compares threads, steps or start nodes");
  });
});
