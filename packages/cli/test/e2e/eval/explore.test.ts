import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "@uwf/cas/test";
import { type ExploreResult, evalListResultSchema, exploreResultSchema, listResultSchema } from "@uwf/protocol";
import { errorOf } from "../../helpers/error-of.ts";
import { createTempHome, FIXTURES, type TempHome } from "../../helpers/temp-home.ts";

/**
 * `uwf explore` end to end with a nondeterministic-but-seeded command agent (fixtures/explore/coin.sh):
 * of the workflow gather → decide → report, only `decide` draws pass or fail, from a seed and a counter
 * of its calls. With one re-run at a time (`--parallel 1`) the calls come in a fixed order, so a seed
 * gives the same draws every run: the test is deterministic. With seed 7 and 8 samples per step the
 * re-runs from step 1 pass 5 of 8, from step 2 (decide) 4 of 8, from step 3 all 8 (its decision was
 * recorded), so step 2 is decisive.
 */
const WORKFLOW = join(FIXTURES, "explore/decide.yaml");
const AGENT = join(FIXTURES, "explore/coin.sh");
const DECIDED = 'decided=steps[role="decide"].output.verdict = "pass"';

let temp: TempHome;
let state: string;
let env: Record<string, string>;

beforeEach(() => {
  temp = createTempHome();
  state = join(temp.work, "coin");
  mkdirSync(state);
  env = { COIN_SEED: "7", COIN_STATE: state, COIN_FIRST: "pass" };
  temp.writeConfig(["agents:", `  coin: { command: sh, args: ["${AGENT}"] }`, "defaultAgent: coin", ""].join("\n"));
});
afterEach(() => temp.cleanup());

async function originalThread(): Promise<string> {
  const run = await temp.uwf(["run", WORKFLOW, "-p", "Decide", "--json"], { env });
  expect(run.exitCode).toBe(0);
  return (run.json() as { thread: string }).thread;
}

async function explore(args: string[], extraEnv: Record<string, string> = {}) {
  const run = await temp.uwf(["explore", ...args, "--json"], { env: { ...env, ...extraEnv } });
  return { run, result: run.stdout === "" ? null : exploreResultSchema.parse(run.json()) };
}

function decideCalls(): number {
  const file = join(state, "count");
  return existsSync(file) ? Number(readFileSync(file, "utf8").trim()) : 0;
}

function step(result: ExploreResult, number: number) {
  const found = result.steps.find((each) => each.step === number);
  if (found === undefined) throw new Error(`no step ${number}`);
  return found;
}

describe("uwf explore", () => {
  it("names the step whose result decided the run, with rates, intervals and effects", async () => {
    const thread = await originalThread();
    const { run, result } = await explore([thread, "--samples", "8", "--parallel", "1", "--assert", DECIDED]);
    expect(run.exitCode).toBe(0);
    if (result === null) throw new Error("no result");
    expect(result.thread).toBe(thread);
    expect(result.original.verdict).toBe("passed");
    expect(result.steps.map((each) => [each.step, each.role, each.samples])).toEqual([
      [1, "gather", 8],
      [2, "decide", 8],
      [3, "report", 8],
    ]);
    // The decision is re-drawn from steps 1 and 2; from step 3 on it is the recorded one.
    expect(step(result, 2).passRate).toBeLessThanOrEqual(0.5);
    expect(step(result, 3).passRate).toBe(1);
    expect(step(result, 3).passed).toBe(8);
    expect(step(result, 2).effect).toBeCloseTo(1 - (step(result, 2).passRate as number), 9);
    expect(step(result, 3).effect).toBe(0);
    expect(step(result, 1).effect).toBeCloseTo(
      (step(result, 2).passRate as number) - (step(result, 1).passRate as number),
      9,
    );
    expect(result.decisive).toEqual([2]);
    expect(step(result, 2).decisive).toBe(true);
    const [low, high] = step(result, 3).interval ?? [Number.NaN, Number.NaN];
    expect(low).toBeCloseTo(0.6756, 3);
    expect(high).toBe(1);
    // One decide call for the original run, one per re-run from steps 1 and 2.
    expect(decideCalls()).toBe(1 + 16);

    // The report is listed with the eval reports; the forks are tagged and left out of list and tree.
    const listed = evalListResultSchema.parse((await temp.uwf(["eval", "list", "--json"])).json());
    expect(listed.reports.map((report) => [report.report, report.kind, report.samples])).toEqual([
      [result.report, "explore", 24],
    ]);
    expect(await temp.threadCount()).toBe(1);
    expect(await temp.threadCount("--explorations")).toBe(25);
    const marked = await temp.uwf(["list", "--explorations", "--limit", "1", "--wide"]);
    expect(marked.stdout).toMatch(/ at step 2 \(explore\)/);
    const tree = (await temp.uwf(["tree", thread, "--json"])).json() as { roots: Array<{ children: unknown[] }> };
    expect(tree.roots[0]?.children).toEqual([]);
    const shown = (await temp.uwf(["tree", thread, "--explorations", "--json"])).json() as {
      roots: Array<{ children: unknown[] }>;
    };
    expect(shown.roots[0]?.children.length).toBe(24);

    // The human table marks the decisive step.
    const table = await temp.uwf(["explore", "show", result.report]);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/^\s+2\s+decide\s+8\s+4\s+0\.50\s+\[0\.22, 0\.78\]\s+\+0\.50\s+◆ decisive$/m);
    expect(table.stdout).toContain("original run: passed");
    expect(table.stdout).toContain("decisive: step 2");
  });

  it("rescores the re-runs with new assertions without running anything, and gates on step 1", async () => {
    const thread = await originalThread();
    const first = await explore([thread, "--samples", "4", "--parallel", "1", "--steps", "2..3", "--assert", DECIDED]);
    expect(first.run.exitCode).toBe(0);
    const report = first.result?.report as string;
    const calls = decideCalls();
    const threads = await temp.threadCount("--explorations");

    const rescored = await temp.uwf(
      ["explore", "rescore", report, "--replace", "--assert", "ended=status: ended", "--json"],
      { env },
    );
    expect(rescored.exitCode).toBe(0);
    const result = exploreResultSchema.parse(rescored.json());
    expect(result.report).not.toBe(report);
    expect(result.rescoredFrom).toBe(first.result?.address as string);
    expect(result.steps.map((each) => [each.step, each.passRate])).toEqual([
      [2, 1],
      [3, 1],
    ]);
    expect(result.decisive).toEqual([]);
    expect(result.assertions.map((assertion) => assertion.name)).toEqual(["ended"]);
    // The same forks, scored where they stood: nothing ran, nothing was forked.
    expect(result.steps.flatMap((each) => each.forks.map((fork) => fork.thread))).toEqual(
      (first.result as ExploreResult).steps.flatMap((each) => each.forks.map((fork) => fork.thread)),
    );
    expect(decideCalls()).toBe(calls);
    expect(await temp.threadCount("--explorations")).toBe(threads);

    // A gate on the first explored step's re-runs: none passes this, so exit 3 (the report is printed).
    const gated = await temp.uwf(
      ["explore", "rescore", report, "--assert", "impossible=$count(steps) = 0", "--min-pass-rate", "0.9", "--json"],
      { env },
    );
    expect(gated.exitCode).toBe(3);
    expect(exploreResultSchema.parse(gated.json()).gateHeld).toBe(false);
    expect(errorOf(gated.stderr).code).toBe("eval-gate-failed");

    // The kinds stay apart.
    const wrongKind = await temp.uwf(["eval", "show", report]);
    expect(wrongKind.exitCode).toBe(2);
    expect(wrongKind.stderr).toContain(`uwf explore show ${report}`);
  });

  it("refuses more runs than the cap before forking anything, and a flag raises it", async () => {
    const thread = await originalThread();
    const capped = await temp.uwf(["explore", thread, "--samples", "400", "--assert", DECIDED], { env });
    expect(capped.exitCode).toBe(2);
    expect(capped.stderr).toContain("3 steps × 400 samples = 1200 runs, more than the 1000 one command makes");
    expect(capped.stderr).toContain("--max-forks 1200");
    const lowered = await temp.uwf(["explore", thread, "--samples", "2", "--max-forks", "5"], { env });
    expect(lowered.exitCode).toBe(2);
    expect(lowered.stderr).toContain("= 6 runs, more than the 5");
    const outside = await temp.uwf(["explore", thread, "--steps", "2..4"], { env });
    expect(outside.exitCode).toBe(2);
    expect(outside.stderr).toContain("has 3 steps, no step 4");
    const malformed = await temp.uwf(["explore", thread, "--steps", "3..1"], { env });
    expect(malformed.exitCode).toBe(2);
    expect(await temp.threadCount("--explorations")).toBe(1);
    expect(decideCalls()).toBe(1);
    // The cost is said before anything runs; a flag raises the cap.
    const raised = await temp.uwf(["explore", thread, "--samples", "2", "--steps", "3", "--max-forks", "2"], { env });
    expect(raised.exitCode).toBe(0);
    expect(raised.stderr).toContain(`exploring thread ${thread}: 1 step × 2 samples = 2 runs`);
    expect(raised.stdout).toMatch(/^\s+3\s+report\s+2\s+2\s+1\.00/m);
  });

  it("stops on Ctrl-C, stores what finished and exits 130; --reuse then finishes the same forks", async () => {
    const thread = await originalThread();
    // The original run made call 1 and the first re-run call 2; call 3 sleeps until it is interrupted.
    const child = temp.spawn(
      ["explore", thread, "--samples", "2", "--steps", "2..3", "--parallel", "1", "--assert", DECIDED, "--json"],
      { env: { ...env, COIN_SLEEP_FROM: "3", COIN_SLEEP: "60" } },
    );
    await waitFor(() => decideCalls() === 3, { what: "the second re-run's decide step" });
    child.kill("SIGINT");
    expect(await child.exited).toBe(130);
    const result = exploreResultSchema.parse(JSON.parse(await new Response(child.stdout as ReadableStream).text()));
    expect(result.stoppedBy).toBe("interrupted");
    const decide = step(result, 2);
    expect(decide.samples).toBe(2);
    expect(decide.passed + decide.failed).toBe(1);
    expect(decide.errored).toBe(1);
    expect(step(result, 3).samples + step(result, 3).unstarted).toBe(2);
    // It is stored, and shows as it was left (its errored re-run exits 1).
    const shown = await temp.uwf(["explore", "show", result.report, "--json"]);
    expect(shown.exitCode).toBe(1);
    expect(exploreResultSchema.parse(shown.json()).steps.map((each) => each.samples)).toEqual(
      result.steps.map((each) => each.samples),
    );
    const made = await temp.threadCount("--explorations");

    const reused = await explore([
      thread,
      "--samples",
      "2",
      "--steps",
      "2..3",
      "--parallel",
      "1",
      "--reuse",
      result.report,
    ]);
    expect(reused.run.exitCode).toBe(0);
    const finished = reused.result as ExploreResult;
    expect(finished.steps.map((each) => [each.samples, each.errored, each.unstarted])).toEqual([
      [2, 0, 0],
      [2, 0, 0],
    ]);
    expect(step(finished, 2).forks.map((fork) => fork.thread)).toEqual(decide.forks.map((fork) => fork.thread));
    expect(finished.assertions.map((assertion) => assertion.name)).toEqual(["decided"]);
    // Only the forks never made before were made now.
    expect(await temp.threadCount("--explorations")).toBe(made + step(result, 3).unstarted);
  });

  it("resamples a fan-out step as a whole: its re-runs make their own branches and run the join", async () => {
    const workflows = join(FIXTURES, "workflows");
    const agent = `scripted:${join(workflows, "fan-out-review.scenario.yaml")}`;
    const started = await temp.uwf([
      "run",
      join(workflows, "fan-out-review.yaml"),
      "-p",
      "cache",
      "--agent",
      agent,
      "--json",
    ]);
    expect(started.exitCode).toBe(0);
    const thread = (started.json() as { thread: string }).thread;
    const { run, result } = await explore([
      thread,
      "--samples",
      "2",
      "--agent",
      agent,
      "--assert",
      'go=final.decision = "go"',
    ]);
    expect(run.exitCode).toBe(0);
    if (result === null) throw new Error("no result");
    expect(result.steps.map((each) => [each.step, each.role, each.passed, each.errored])).toEqual([
      [1, "planner", 2, 0],
      [2, "synthesizer", 2, 0],
    ]);
    // Each re-run of step 1 fanned out again (three branches of its own) and joined; from step 2 on, the
    // re-runs stand where the planner's step fanned out, so they make fresh branches too.
    const forks = result.steps.flatMap((each) => each.forks.map((fork) => fork.thread));
    for (const fork of forks) {
      const shown = await temp.showThread(fork);
      expect([shown.status, shown.stepCount, shown.outcome?.role]).toEqual(["ended", 2, "synthesizer"]);
      const branches = listResultSchema
        .parse((await temp.uwf(["list", "--explorations", "--limit", "0", "--json"])).json())
        .threads.filter((each) => each.branchOf?.thread === fork);
      expect(branches.map((branch) => [branch.status, branch.exploredBy?.exploration])).toEqual([
        ["ended", result.report],
        ["ended", result.report],
        ["ended", result.report],
      ]);
    }
    // The original and its own three branches are all `list` shows: the re-runs' branches are tagged too.
    expect(await temp.threadCount()).toBe(4);
    expect(await temp.threadCount("--explorations")).toBe(4 + 4 + 4 * 3);
  });

  it("explores a branch thread: the parent forks its re-runs make are tagged as the re-runs are", async () => {
    const workflows = join(FIXTURES, "workflows");
    const agent = `scripted:${join(workflows, "fan-out-review.scenario.yaml")}`;
    const started = await temp.uwf(["run", join(workflows, "fan-out-review.yaml"), "-p", "cache", "--agent", agent]);
    expect(started.exitCode).toBe(0);
    const listed = listResultSchema.parse((await temp.uwf(["list", "--limit", "0", "--json"])).json()).threads;
    const speed = listed.find((thread) => thread.branchOf?.branch === "speed");
    if (speed === undefined) throw new Error("no speed branch");
    const { run, result } = await explore([speed.id, "--samples", "1", "--agent", agent, "--assert", "status: ended"]);
    expect(run.exitCode).toBe(0);
    if (result === null) throw new Error("no result");
    // A re-run of the branch forks its parent too (in the branch's place): both are the exploration's.
    const explored = listResultSchema
      .parse((await temp.uwf(["list", "--explorations", "--limit", "0", "--json"])).json())
      .threads.filter((thread) => !listed.some((original) => original.id === thread.id));
    expect(explored.length).toBeGreaterThan(0);
    expect(explored.some((thread) => thread.branchOf === undefined && thread.forkedFrom !== null)).toBe(true);
    expect(explored.map((thread) => [thread.id, thread.exploredBy?.exploration])).toEqual(
      explored.map((thread) => [thread.id, result.report]),
    );
    // `list` still shows the original and its branches only.
    expect(await temp.threadCount()).toBe(listed.length);
  });

  it("stops starting steps once the re-runs spent --max-cost, stores what finished and exits 1", async () => {
    const thread = await originalThread();
    // Every reply costs $0.01; the re-runs from step 2 run two steps each: the third re-run's first step
    // brings the spend to $0.05, and no step starts after it.
    const { run, result } = await explore(
      [thread, "--samples", "4", "--steps", "2..3", "--parallel", "1", "--max-cost", "0.05", "--assert", DECIDED],
      { COIN_COST: "0.01" },
    );
    expect(run.exitCode).toBe(1);
    if (result === null) throw new Error("no result");
    expect(result.stoppedBy).toBe("max-cost");
    expect(result.spentUsd).toBeCloseTo(0.05, 6);
    const decide = step(result, 2);
    expect([decide.samples, decide.passed + decide.failed, decide.errored]).toEqual([4, 2, 2]);
    // The forks of step 3 were made first, so they are there, unfinished: errored, not unstarted.
    expect([step(result, 3).samples, step(result, 3).errored]).toEqual([4, 4]);
    expect(errorOf(run.stderr).code).toBe("eval-errored");
  });
});
