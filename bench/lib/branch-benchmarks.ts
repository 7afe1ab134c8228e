/**
 * Issue 31's benchmarks (branches), on the embedded store of fresh homes:
 * 1. a fan-out of 100 `role:` branches made by one `uwf step` (the fan-out step, then the 100 branch
 *    threads and their links), against the floor (`bun -e 0`) measured round-robin with it, and beside
 *    `uwf fork HEAD --count 100` (100 forks made by forkThreads) as a reference;
 * 2. 100 scripted branches stepped and joined by `uwf step PARENT --all --parallel 4`, against 100 forks
 *    (at a thread's first step, as branches start at their parent's) stepped by `uwf step - --all
 *    --parallel 4` plus one more step (`uwf step THREAD`), the same work;
 * 3. the join step's reads (in-process, counted at the store and timed) for branches of 1 and of 20 own
 *    steps (`workflow:` branches of a 1-step and a 20-step workflow): flat in the steps inside branches.
 * Run alone with `bun bench/lib/branch-benchmarks.ts [--runs N]` (builds the binary if missing).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openFileStore, type Store } from "../../packages/cas/src/index.ts";
import { registerWorkflowFile, startThread, stepThread } from "../../packages/engine/src/index.ts";
import { defaultConfig, type ThreadRecord } from "../../packages/protocol/src/index.ts";
import { type ProcessRun, round, type Summary, summarize } from "./measure.ts";
import { runAlone, targetLines } from "./run-benchmark-alone.ts";
import { scriptedStepOptions } from "./scripted-step-options.ts";
import { ulidAt } from "./ulid.ts";

const BRANCHES = 100;
const PARALLEL = 4;
/** The fan-out creation target: the `uwf step` that makes 100 branches within this many floors. */
const FAN_OUT_FLOOR_MULTIPLE = 20;
/** Branches of the join-reads benchmark, and the own steps of each in its two variants. */
const JOIN_BRANCHES = 10;
const JOIN_STEPS = [1, 20] as const;

export interface BranchBenchResult {
  branches: number;
  parallel: number;
  /** `uwf step PARENT`: the fan-out step and its 100 branches. */
  fanOut: Summary;
  /** `uwf fork HEAD --count 100`, for reference. */
  fork100: Summary;
  /** `bun -e 0`, measured round-robin with the two above. */
  floor: Summary;
  fanOutFloorMultiple: number;
  /** `uwf step PARENT --all --parallel 4`: 100 branch steps and the join. */
  joinAll: Summary;
  /** `uwf step - --all --parallel 4` of 100 forks at a first step, plus `uwf step` of one more. */
  forksPlusOne: Summary;
  /** joinAll / forksPlusOne: at most 1 meets the target. */
  joinRatio: number;
  /** The join step of a parent whose branches each took 1 or 20 steps of their own. */
  join: { ownSteps: number; branches: number; reads: number; step: Summary }[];
}

export interface BranchBenchOptions {
  binary: string;
  temporaryRoot: string;
  environment(home: string): Record<string, string | undefined>;
  runs: number;
  progress(message: string): void;
}

/** The two roles the fan-out and the chain workflows share: a splitter that counts items, a fixer of one. */
/** The roles of the benchmarks' workflows, as lines under `roles:`. */
const SPLITTER_ROLE = `  splitter:
    goal: List the items.
    frontmatter:
      type: object
      properties:
        count: { type: integer }
      required: [count]`;
const FIXER_ROLE = `  fixer:
    goal: Handle one item.
    frontmatter: { type: object, properties: { done: { type: boolean } }, required: [done] }`;
const REDUCER_ROLE = `  reducer:
    goal: Sum up.
    frontmatter: { type: object, properties: { summary: { type: string } }, required: [summary] }`;

/** The graph's start and its fan-out: the splitter's count of items, each one `branch`'s, joined by the reducer. */
function fanOutGraph(branch: string): string {
  return `  $START:
    - { role: splitter, prompt: "List the items." }
  splitter:
    - foreach: "[1..count]"
      as: item
      branch: { ${branch}, prompt: "Handle item {{ item }}." }
      join: { role: reducer, policy: all, prompt: "Sum up {{ branches.size }} items." }`;
}

const FAN_OUT_WORKFLOW = `name: bench-fan-out
description: a splitter's list fanned out to one fixer step per item, then a reducer
roles:
${SPLITTER_ROLE}
${FIXER_ROLE}
${REDUCER_ROLE}
graph:
${fanOutGraph("role: fixer")}
  fixer:
    - { role: $END, prompt: Done. }
  reducer:
    - { role: $END, prompt: Done. }
`;

/**
 * The forks' workflow: the same splitter step, then one fixer step, without a fan-out. A fork at the
 * splitter's step shares its history up to there, as a role branch shares its parent's, so its fixer
 * step does what a branch's does (its prompt shows the splitter's step; its chain index covers it).
 */
const CHAIN_WORKFLOW = `name: bench-chain
description: the splitter, then one fixer step (forked at the splitter's step, a branch's shape)
roles:
${SPLITTER_ROLE}
${FIXER_ROLE}
graph:
  $START:
    - { role: splitter, prompt: "List the items." }
  splitter:
    - { role: fixer, prompt: "Handle the item." }
  fixer:
    - { role: $END, prompt: Done. }
`;

function stepsWorkflow(steps: number): string {
  return `name: bench-steps-${steps}
description: a worker that takes ${steps} steps
roles:
  worker:
    goal: Do one part.
    frontmatter: { type: object, properties: { done: { type: boolean } }, required: [done] }
conditions:
  more:
    expression: '$count("worker") < ${steps}'
graph:
  $START:
    - { role: worker, prompt: "Start." }
  worker:
    - { role: worker, condition: more, prompt: "Go on." }
    - { role: $END, prompt: Done. }
`;
}

const JOIN_WORKFLOW = (steps: number) => `name: bench-join-${steps}
description: ${JOIN_BRANCHES} workflow branches of ${steps} steps each, then a reducer
roles:
${SPLITTER_ROLE}
${REDUCER_ROLE}
graph:
${fanOutGraph(`workflow: bench-steps-${steps}`)}
  reducer:
    - { role: $END, prompt: Done. }
`;

function scenario(items: number, branchSteps: number, branchRole: string): string {
  const steps = [
    // A count, not a list: the scripted agent reads its scenario at every step, so the file stays as small as the forks' one.
    `  - { role: splitter, output: { count: ${items} } }`,
    "  - { role: reducer, output: { summary: done }, body: Done. }",
    ...Array.from(
      { length: branchSteps },
      () => `  - { role: ${branchRole}, branch: "*", output: { done: true }, body: Done. }`,
    ),
  ];
  return `steps:\n${steps.join("\n")}\n`;
}

/** A process to its end, timed; `stdin` written to it (the measure kit's runProcess gives none). */
function runProcess(
  command: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  stdin?: string,
): ProcessRun {
  const began = Bun.nanoseconds();
  const child = Bun.spawnSync(command, {
    cwd,
    env,
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const ms = (Bun.nanoseconds() - began) / 1e6;
  return { exitCode: child.exitCode ?? -1, stdout: child.stdout.toString(), stderr: child.stderr.toString(), ms };
}

export async function measureBranches(options: BranchBenchOptions): Promise<BranchBenchResult> {
  const root = mkdtempSync(join(options.temporaryRoot, "branch-bench-"));
  const files = join(root, "files");
  mkdirSync(files);
  const fanOutFile = join(files, "bench-fan-out.yaml");
  writeFileSync(fanOutFile, FAN_OUT_WORKFLOW);
  const chainFile = join(files, "bench-chain.yaml");
  writeFileSync(chainFile, CHAIN_WORKFLOW);
  const fanOutScenario = join(files, "fan-out.scenario.yaml");
  writeFileSync(fanOutScenario, scenario(BRANCHES, 1, "fixer"));
  const chainScenario = join(files, "chain.scenario.yaml");
  writeFileSync(
    chainScenario,
    `steps:\n  - { role: splitter, output: { count: ${BRANCHES} } }\n  - { role: fixer, output: { done: true }, body: Done. }\n`,
  );
  let homes = 0;
  const newHome = () => {
    const home = join(root, `home-${++homes}`);
    mkdirSync(join(home, "work"), { recursive: true });
    return home;
  };
  const uwf = (home: string, args: string[], stdin?: string) => {
    const run = runProcess([options.binary, ...args], join(home, "work"), options.environment(home), stdin);
    if (run.exitCode !== 0) throw new Error(`uwf ${args.join(" ")} exited ${run.exitCode}: ${run.stderr.slice(-2000)}`);
    return run;
  };
  const started = (home: string, workflow: string) =>
    // No step limit: the 100 branch steps count against the parent's budget (100 steps by default).
    (
      JSON.parse(uwf(home, ["start", workflow, "-p", "bench", "--max-steps", "0", "--json"]).stdout) as {
        thread: string;
      }
    ).thread;

  // 1. The fan-out step with its 100 branches, round-robin with `fork --count 100` and the floor.
  const fanOutSamples: number[] = [];
  const forkSamples: number[] = [];
  const floorSamples: number[] = [];
  for (let run = 0; run <= options.runs * 3; run++) {
    const home = newHome();
    const parent = started(home, fanOutFile);
    const source = started(home, chainFile);
    uwf(home, ["step", source, "--agent", `scripted:${chainScenario}`]);
    const floor = runProcess([process.execPath, "-e", "0"], join(home, "work"), options.environment(home));
    const fanOut = uwf(home, ["step", parent, "--agent", `scripted:${fanOutScenario}`]);
    const fork = uwf(home, ["fork", source, "--count", String(BRANCHES)]);
    if (run === 0) continue; // warm-up
    floorSamples.push(floor.ms);
    fanOutSamples.push(fanOut.ms);
    forkSamples.push(fork.ms);
  }
  const fanOut = summarize(fanOutSamples);
  const floor = summarize(floorSamples);
  const fork100 = summarize(forkSamples);
  options.progress(
    `fan-out of ${BRANCHES} branches: uwf step ${fanOut.medianMs} ms, fork --count ${BRANCHES} ${fork100.medianMs} ms, floor ${floor.medianMs} ms`,
  );

  // 2. 100 branches stepped and joined, against 100 forks stepped plus one step.
  const joinSamples: number[] = [];
  const forkStepSamples: number[] = [];
  for (let run = 0; run <= options.runs; run++) {
    const home = newHome();
    const parent = started(home, fanOutFile);
    uwf(home, ["step", parent, "--agent", `scripted:${fanOutScenario}`]);
    const joined = uwf(home, [
      "step",
      parent,
      "--all",
      "--parallel",
      String(PARALLEL),
      "--agent",
      `scripted:${fanOutScenario}`,
      "--json",
    ]);
    // --parallel makes it a batch (of one thread).
    if ((JSON.parse(joined.stdout) as { threads: { status: string }[] }).threads[0]?.status !== "ended")
      throw new Error(`the parent did not end: ${joined.stdout.slice(0, 500)}`);

    // 101 forks of a thread at its splitter's step: 100 stepped in a batch, then one more step.
    const forkHome = newHome();
    const source = started(forkHome, chainFile);
    uwf(forkHome, ["step", source, "--agent", `scripted:${chainScenario}`]);
    const forks = uwf(forkHome, ["fork", source, "--count", String(BRANCHES + 1)])
      .stdout.trim()
      .split("\n");
    const stepped = uwf(
      forkHome,
      ["step", "-", "--all", "--parallel", String(PARALLEL), "--agent", `scripted:${chainScenario}`],
      `${forks.slice(0, BRANCHES).join("\n")}\n`,
    );
    const one = uwf(forkHome, ["step", forks[BRANCHES] as string, "--agent", `scripted:${chainScenario}`]);
    if (run === 0) continue;
    joinSamples.push(joined.ms);
    forkStepSamples.push(stepped.ms + one.ms);
    options.progress(
      `${BRANCHES} branches joined ${Math.round(joined.ms)} ms; ${BRANCHES} forks stepped + one step ${Math.round(stepped.ms + one.ms)} ms`,
    );
  }
  const joinAll = summarize(joinSamples);
  const forksPlusOne = summarize(forkStepSamples);

  // 3. The join step's reads, for branches of 1 and of 20 own steps.
  const joins: BranchBenchResult["join"] = [];
  for (const ownSteps of JOIN_STEPS) joins.push(await measureJoinReads(newHome(), files, ownSteps, options.runs));
  for (const entry of joins) {
    options.progress(
      `join of ${entry.branches} branches of ${entry.ownSteps} own steps: ${entry.reads} nodes read, median ${entry.step.medianMs} ms`,
    );
  }
  rmSync(root, { recursive: true, force: true });
  return {
    branches: BRANCHES,
    parallel: PARALLEL,
    fanOut,
    fork100,
    floor,
    fanOutFloorMultiple: round(fanOut.medianMs / floor.medianMs, 2),
    joinAll,
    forksPlusOne,
    joinRatio: round(joinAll.medianMs / forksPlusOne.medianMs, 2),
    join: joins,
  };
}

/** A store that counts the nodes read through it. */
function countingStore(store: Store): { store: Store; reads: () => number } {
  let reads = 0;
  const objects = Object.assign(Object.create(store.objects), {
    get: (address: string) => {
      reads++;
      return store.objects.get(address);
    },
  });
  return { store: { ...store, objects } as Store, reads: () => reads };
}

/**
 * Parents whose branches (workflow branches of `ownSteps` steps) have all ended, made in-process; then
 * each parent's join step timed, and the nodes the first one read counted.
 */
async function measureJoinReads(
  home: string,
  files: string,
  ownSteps: number,
  runs: number,
): Promise<BranchBenchResult["join"][number]> {
  const workflowFile = join(files, `bench-join-${ownSteps}.yaml`);
  writeFileSync(workflowFile, JOIN_WORKFLOW(ownSteps));
  const stepsFile = join(files, `bench-steps-${ownSteps}.yaml`);
  writeFileSync(stepsFile, stepsWorkflow(ownSteps));
  const scenarioFile = join(files, `join-${ownSteps}.scenario.yaml`);
  writeFileSync(scenarioFile, scenario(JOIN_BRANCHES, ownSteps, "worker"));
  const store = await openFileStore(home);
  const now = () => new Date();
  const config = defaultConfig();
  const samples: number[] = [];
  let reads = 0;
  try {
    await registerWorkflowFile({ store, file: stepsFile, now });
    for (let run = 0; run <= runs; run++) {
      const record = await startThread({
        store,
        config,
        workflowReference: workflowFile,
        prompt: `bench ${run}`,
        limits: { maxSteps: 0 },
        newId: () => ulidAt(Date.now()),
        cwd: join(home, "work"),
        home,
        now,
      });
      const step = {
        ...scriptedStepOptions(store, config, home, record.id, scenarioFile, now),
        parallel: PARALLEL,
        allBranches: true,
      };
      let current: ThreadRecord = (await stepThread(step)).record;
      while (current.status === "waiting") current = (await stepThread(step)).record;
      if (current.status !== "active") throw new Error(`the parent is ${current.status} before its join`);
      const counting = countingStore(store);
      const began = performance.now();
      const joined = await stepThread({ ...step, store: counting.store });
      const ms = performance.now() - began;
      if (joined.record.status !== "ended") throw new Error(`the join left the parent ${joined.record.status}`);
      if (run === 0) reads = counting.reads();
      else samples.push(ms);
    }
  } finally {
    await store.close();
  }
  return { ownSteps, branches: JOIN_BRANCHES, reads, step: summarize(samples) };
}

export function checkBranchTargets(result: BranchBenchResult): { target: string; measured: string; met: boolean }[] {
  const [few, many] = result.join;
  return [
    {
      target: `a fan-out of ${result.branches} role branches (\`uwf step\` of the fan-out step): within ${FAN_OUT_FLOOR_MULTIPLE}× the floor`,
      measured: `${result.fanOut.medianMs} ms = ${result.fanOutFloorMultiple}× (fork --count ${result.branches}: ${result.fork100.medianMs} ms)`,
      met: result.fanOutFloorMultiple <= FAN_OUT_FLOOR_MULTIPLE,
    },
    {
      target: `${result.branches} scripted branches joined with --parallel ${result.parallel}: no slower than ${result.branches} forks stepped by \`step - --all --parallel ${result.parallel}\` plus one step`,
      measured: `${result.joinAll.medianMs} ms vs ${result.forksPlusOne.medianMs} ms (${result.joinRatio}×)`,
      met: result.joinRatio <= 1,
    },
    {
      target: "the join step reads the same nodes whatever the steps inside its branches",
      measured: `${few?.reads} nodes (${few?.step.medianMs} ms) with ${few?.ownSteps}-step branches, ${many?.reads} (${many?.step.medianMs} ms) with ${many?.ownSteps}-step ones`,
      met: few !== undefined && many !== undefined && few.reads === many.reads,
    },
  ];
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "3" } } });
  await runAlone(
    "uwf-branch-bench-",
    (context) => measureBranches({ ...context, runs: Number(values.runs) }),
    (result) => targetLines(checkBranchTargets(result)),
  );
}
