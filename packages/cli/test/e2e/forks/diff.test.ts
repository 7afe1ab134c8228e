import { Database } from "bun:sqlite";
import { describe, expect, it } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rollBackRefDatabase } from "@uwf/cas/test";
import {
  diffResultSchema,
  forkResultSchema,
  forksResultSchema,
  logResultSchema,
  startResultSchema,
} from "@uwf/protocol";
import { FIXTURES, LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

/** Four roles in turn (scout, analyst, writer, checker); the writer reports title, verdict, confidence and maybe a note. */
const SURVEY = join(FIXTURES, "workflows/survey.yaml");
const SURVEY_SCRIPTED = `scripted:${join(FIXTURES, "workflows/survey.scenario.yaml")}`;

const temp = useTempHome();

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

  it("reports where two forks part (step 3) and exactly the fields that differ there", async () => {
    const started = await temp.uwf(["start", SURVEY, "-p", "Survey a field", "--json"]);
    const original = startResultSchema.parse(started.json()).thread;
    expect((await temp.uwf(["step", original, "--all", "--agent", SURVEY_SCRIPTED])).exitCode).toBe(0);
    const steps = logResultSchema.parse((await temp.uwf(["log", original, "--json"])).json()).steps;
    expect(steps.map((step) => step.role)).toEqual(["scout", "analyst", "writer", "checker"]);
    const [, analyst, writer] = steps;
    if (analyst === undefined || writer === undefined) throw new Error("expected four steps");

    // Two write-ups in place of step 3: both keep the title; the second drops the note.
    const folder = join(temp.work, "write-ups");
    mkdirSync(folder);
    writeFileSync(
      join(folder, "a.md"),
      "---\ntitle: North field survey\nverdict: stop\nconfidence: 0.3\nnote: Too few samples.\n---\nStop.\n",
    );
    writeFileSync(join(folder, "b.md"), "---\ntitle: North field survey\nverdict: wait\nconfidence: 0.8\n---\nWait.\n");
    const forked = await temp.uwf(["fork", writer.address, "--output", "write-ups", "--json"]);
    expect(forked.exitCode).toBe(0);
    const [stop, wait] = forksResultSchema.parse(forked.json()).forks.map((fork) => fork.thread);
    if (stop === undefined || wait === undefined) throw new Error("expected two forks");
    // Each fork's checker (step 4) is the scenario's, as the original's was.
    expect((await temp.uwf(["step", stop, wait, "--all", "--agent", SURVEY_SCRIPTED])).exitCode).toBe(0);

    const result = await diff(stop, wait);
    expect(result.sameStart).toBe(true);
    expect(result.commonSteps).toBe(2);
    expect(result.commonAddress).toBe(analyst.address);
    expect(result.steps.map((step) => step.number)).toEqual([3, 4]);
    expect(result.steps[0]?.left).toMatchObject({ role: "writer", agent: "manual" });
    // In the order the output node holds them (sorted, as every node's keys are).
    expect(result.steps[0]?.fields).toEqual([
      { field: "confidence", change: "changed", left: 0.3, right: 0.8 },
      { field: "note", change: "removed", left: "Too few samples." },
      { field: "verdict", change: "changed", left: "stop", right: "wait" },
    ]);
    expect(result.steps[1]?.fields).toEqual([]);
    expect(result.totals.left).toMatchObject({ steps: 4, status: "ended" });
    expect(result.totals.right).toMatchObject({ steps: 4, status: "ended" });

    // Against the original only the verdict differs at step 3: the same title and confidence are not listed.
    const fromOriginal = await diff(original, wait);
    expect(fromOriginal.commonSteps).toBe(2);
    expect(fromOriginal.steps[0]?.number).toBe(3);
    expect(fromOriginal.steps[0]?.fields).toEqual([{ field: "verdict", change: "changed", left: "go", right: "wait" }]);

    const text = await temp.uwf(["diff", stop, wait]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain(`common: 2 steps, the last ${analyst.address}`);
    expect(text.stdout).toMatch(/^3 +writer manual 0ms +writer manual 0ms$/m);
    expect(text.stdout).toContain('verdict: "stop" → "wait"');
    expect(text.stdout).toContain('note: "Too few samples." → (absent)');
    expect(text.stdout).not.toContain("title:");
  });

  it("prints the same diff from the steps' details in the chain indexes as from a home whose indexes keep none", async () => {
    const started = await temp.uwf(["start", SURVEY, "-p", "Survey a field", "--json"]);
    const original = startResultSchema.parse(started.json()).thread;
    expect((await temp.uwf(["step", original, "--all", "--agent", SURVEY_SCRIPTED])).exitCode).toBe(0);
    const [, analyst, writer] = logResultSchema.parse((await temp.uwf(["log", original, "--json"])).json()).steps;
    if (analyst === undefined || writer === undefined) throw new Error("expected four steps");
    const reply = join(temp.work, "stop.md");
    writeFileSync(
      reply,
      "---\n$status: halted\ntitle: North field survey\nverdict: stop\nconfidence: 0.3\n---\nStop.\n",
    );
    const fork = forkResultSchema.parse((await temp.uwf(["fork", writer.address, "--output", reply, "--json"])).json());
    expect((await temp.uwf(["step", fork.thread, "--all", "--agent", SURVEY_SCRIPTED])).exitCode).toBe(0);
    const diffs = [
      ["diff", original, fork.thread],
      ["diff", original, fork.thread, "--bodies", "--json"],
      ["diff", fork.thread, analyst.address, "--json"],
      ["diff", original, fork.thread, "--bodies"],
    ];
    const outputs = async () => {
      const printed: string[] = [];
      for (const args of diffs) {
        const run = await temp.uwf(args);
        expect(run.stderr).toBe("");
        expect(run.exitCode).toBe(0);
        printed.push(run.stdout);
      }
      return printed;
    };
    const refs = () => new Database(join(temp.home, "refs.db"));
    const database = refs();
    const kept = database
      .query<{ steps: number }, []>("SELECT count(*) AS steps FROM chain_index_details GROUP BY thread_id")
      .all();
    database.close();
    // Each thread's index keeps all 4 steps' details: the fork's are its parent's 2, its written reply's and its checker's.
    expect(kept.map((row) => row.steps)).toEqual([4, 4]);
    const fromDetails = await outputs();
    expect(fromDetails[0]).toContain('verdict: "go" → "stop"');
    expect(diffResultSchema.parse(JSON.parse(fromDetails[1] as string)).steps[0]?.right?.status).toBe("halted");

    // A home from before ref schema 24: its indexes are migrated with no steps' details.
    rollBackRefDatabase(join(temp.home, "refs.db"), 22);
    expect(await outputs()).toEqual(fromDetails);
    const migrated = refs();
    expect(migrated.query("SELECT * FROM chain_index_details").all()).toEqual([]);
    migrated.close();
  });

  it("compares a thread with its own ancestor step: only the later steps, on one side", async () => {
    const original = await finishedThread();
    const result = await diff(original.thread, original.planner);
    expect(result.left.thread).toBe(original.thread);
    expect(result.right).toMatchObject({ thread: null, head: original.planner });
    // What the pairing holds is packages/engine/src/fork/diff-chains.test.ts's; here, that the CLI resolves a node as a side.
    expect([result.commonSteps, result.commonAddress]).toEqual([1, original.planner]);
    expect(result.steps.map((step) => [step.number, step.left?.address, step.right])).toEqual([
      [2, original.doer, null],
    ]);
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
