/**
 * Issue 43: `uwf step` side by side with the build before the wave that slowed it (a61ccc8), round-robin
 * with the floor (`bun -e 0`) so the machine's drift touches all alike. Each build gets a home of its own
 * (its own store format), made with its own CLI: the loop workflow, one thread per size stepped to that
 * size by the `/bin/sh` command agent, and a scenario for the scripted agent. Threads grow by one step a
 * run, alike in both builds (a 200-step thread is measured from 200 to about 217 steps).
 *
 * Run alone: `bun bench/lib/baseline-step-benchmarks.ts [--smoke]`. The baseline binary is
 * UWF_BENCH_BASELINE when set, else built once from a61ccc8 in a worktree under the temp folder (kept
 * for later runs). A full run writes bench/results/baseline-steps.json.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type MeasureProcessOptions, measureInterleaved, round, runProcess, type Summary } from "./measure.ts";
import type { TargetCheck } from "./report.ts";
import { type AloneOptions, runBenchmarkAlone, targetLines } from "./run-benchmark-alone.ts";

const repositoryRoot = resolve(import.meta.dir, "../..");
export const BASELINE_COMMIT = "a61ccc8";

export interface BaselinePlan {
  sizes: number[];
  runs: number;
  warmup: number;
}

export const BASELINE_PLANS: { full: BaselinePlan; smoke: BaselinePlan } = {
  full: { sizes: [1, 30, 200], runs: 15, warmup: 2 },
  smoke: { sizes: [1, 5], runs: 2, warmup: 1 },
};

export interface BaselineRow {
  id: string;
  name: string;
  current: Summary;
  baseline: Summary;
  /** current ÷ baseline, medians. */
  ratio: number;
  /** current ÷ baseline, median CPU times (which other processes on the machine move far less than wall times). */
  cpuRatio?: number;
  /** current ÷ the floor measured in the same round-robin. */
  currentFloor: number;
  baselineFloor: number;
}

export interface BaselineResult {
  baselineCommit: string;
  floorMs: number;
  rows: BaselineRow[];
  targets: TargetCheck[];
}

const COMMAND_AGENT = `agents:
  sh:
    command: /bin/sh
    args:
      - -c
      - "printf -- '---\\\\nn: %s\\\\ndone: false\\\\nsummary: benchmark step %s\\\\n---\\\\n\\\\nDid step %s of the benchmark thread.\\\\n' \\"$UWF_STEP\\" \\"$UWF_STEP\\" \\"$UWF_STEP\\""
defaultAgent: sh
`;

/** The baseline binary: UWF_BENCH_BASELINE, else a61ccc8 built once in a worktree under the temp folder. */
export function baselineBinary(progress: (message: string) => void): string {
  const given = process.env.UWF_BENCH_BASELINE;
  if (given !== undefined && given !== "") return given;
  const folder = join(tmpdir(), `uwf-bench-baseline-${BASELINE_COMMIT}`);
  const binary = join(folder, "packages/cli/dist/uwf");
  if (existsSync(binary)) return binary;
  progress(`building the baseline ${BASELINE_COMMIT} in ${folder} (once)`);
  const steps = [
    { command: ["git", "worktree", "add", "--detach", folder, BASELINE_COMMIT], cwd: repositoryRoot },
    { command: [process.execPath, "install", "--frozen-lockfile"], cwd: folder },
    { command: [process.execPath, "run", "build"], cwd: folder },
  ];
  for (const step of steps) {
    if (step.command[0] === "git" && existsSync(folder)) continue;
    const run = runProcess(step.command, step.cwd, process.env);
    if (run.exitCode !== 0) throw new Error(`${step.command.join(" ")} failed:\n${run.stderr.slice(-2000)}`);
  }
  return binary;
}

interface BuildHome {
  binary: string;
  home: string;
  threads: Map<number, string>;
  scenario: string;
}

function prepareHome(label: string, binary: string, options: AloneOptions<BaselinePlan>, cwd: string): BuildHome {
  const home = join(options.temporaryRoot, `home-${label}`);
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "config.yaml"), COMMAND_AGENT);
  const env = options.environment(home);
  const uwf = (args: string[]) => {
    const run = runProcess([binary, ...args], cwd, env);
    if (run.exitCode !== 0) throw new Error(`${label}: uwf ${args.join(" ")} failed:\n${run.stderr.slice(-2000)}`);
    return run.stdout;
  };
  uwf(["workflow", "add", join(repositoryRoot, "bench/fixtures/loop.yaml")]);
  const threads = new Map<number, string>();
  for (const size of options.plan.sizes) {
    options.progress(`${label}: a ${size}-step thread`);
    const started = JSON.parse(uwf(["--json", "start", "loop", "-p", "Benchmark task", "--max-steps", "100000"]));
    uwf(["step", started.thread, "-n", String(size)]);
    threads.set(size, started.thread);
  }
  // The scripted agent plays entry N at step N: enough entries for every run of every size.
  const longest = Math.max(...options.plan.sizes) + 2 * (options.plan.runs + options.plan.warmup) + 10;
  const entries = Array.from({ length: longest }, (_, index) => ({
    role: "worker",
    output: { n: index + 1, done: false, summary: `benchmark step ${index + 1}` },
    body: `Did step ${index + 1} of the benchmark thread.`,
  }));
  const scenario = join(options.temporaryRoot, `scenario-${label}.json`);
  writeFileSync(scenario, JSON.stringify({ steps: entries }));
  return { binary, home, threads, scenario };
}

export async function measureBaselineSteps(options: AloneOptions<BaselinePlan>): Promise<BaselineResult> {
  const cwd = join(options.temporaryRoot, "work");
  mkdirSync(cwd, { recursive: true });
  const builds = {
    current: prepareHome("current", options.binary, options, cwd),
    baseline: prepareHome(BASELINE_COMMIT, baselineBinary(options.progress), options, cwd),
  };
  const { runs, warmup } = options.plan;
  const process_ = (build: BuildHome, args: string[]): MeasureProcessOptions => ({
    command: [build.binary, ...args],
    cwd,
    env: options.environment(build.home),
    runs,
    warmup,
  });
  const floor: MeasureProcessOptions = { command: [process.execPath, "-e", "0"], cwd, env: process.env, runs, warmup };

  type Pair = { id: string; name: string; args: (build: BuildHome) => string[] };
  const groups: Pair[][] = [
    [{ id: "version", name: "uwf --version", args: () => ["--version"] }],
    ...options.plan.sizes.map((size) => [
      {
        id: `step-${size}-command`,
        name: `uwf step (${size}-step thread, /bin/sh command agent)`,
        args: (build: BuildHome) => ["step", build.threads.get(size) as string],
      },
      {
        id: `step-${size}-scripted`,
        name: `uwf step (${size}-step thread, scripted agent)`,
        args: (build: BuildHome) => [
          "step",
          build.threads.get(size) as string,
          "--agent",
          `scripted:${build.scenario}`,
        ],
      },
    ]),
  ];
  const rows: BaselineRow[] = [];
  const floors: number[] = [];
  for (const pairs of groups) {
    options.progress(`measuring ${pairs.map((pair) => pair.id).join(", ")} against ${BASELINE_COMMIT}`);
    const list = [
      floor,
      ...pairs.flatMap((pair) => [
        process_(builds.current, pair.args(builds.current)),
        process_(builds.baseline, pair.args(builds.baseline)),
      ]),
    ];
    const [floorSummary, ...summaries] = await measureInterleaved(list);
    const floorMs = (floorSummary as Summary).medianMs;
    floors.push(floorMs);
    for (const [index, pair] of pairs.entries()) {
      const current = summaries[2 * index] as Summary;
      const baseline = summaries[2 * index + 1] as Summary;
      rows.push({
        id: pair.id,
        name: pair.name,
        current,
        baseline,
        ratio: round(current.medianMs / baseline.medianMs),
        ...(current.cpuMedianMs === undefined || baseline.cpuMedianMs === undefined
          ? {}
          : { cpuRatio: round(current.cpuMedianMs / baseline.cpuMedianMs) }),
        currentFloor: round(current.medianMs / floorMs),
        baselineFloor: round(baseline.medianMs / floorMs),
      });
    }
  }
  return {
    baselineCommit: BASELINE_COMMIT,
    floorMs: round(floors.reduce((sum, value) => sum + value, 0) / floors.length),
    rows,
    targets: baselineTargets(rows, options.plan),
  };
}

/** Issue 43's step targets. */
export function baselineTargets(rows: readonly BaselineRow[], plan: BaselinePlan): TargetCheck[] {
  const targets: TargetCheck[] = [];
  const row = (id: string) => rows.find((candidate) => candidate.id === id);
  const version = row("version");
  if (version !== undefined) {
    targets.push({
      target: "uwf --version ≤ 1.2× the floor",
      measured: `${version.currentFloor}×`,
      met: version.currentFloor <= 1.2,
    });
  }
  for (const size of plan.sizes.filter((candidate) => candidate <= 30)) {
    for (const agent of ["command", "scripted"]) {
      const measured = row(`step-${size}-${agent}`);
      if (measured === undefined) continue;
      targets.push({
        target: `uwf step, ${size}-step thread, ${agent} agent ≤ 3× the floor`,
        measured: `${measured.currentFloor}× (${measured.current.medianMs} ms)`,
        met: measured.currentFloor <= 3,
      });
    }
  }
  const longest = Math.max(...plan.sizes);
  if (longest >= 200) {
    for (const agent of ["command", "scripted"]) {
      const measured = row(`step-${longest}-${agent}`);
      if (measured === undefined) continue;
      targets.push({
        target: `uwf step, ${longest}-step thread, ${agent} agent ≤ 1.1× ${BASELINE_COMMIT}`,
        measured: `${measured.ratio}× (${measured.current.medianMs} against ${measured.baseline.medianMs} ms)`,
        met: measured.ratio <= 1.1,
      });
    }
  }
  return targets;
}

export function baselineReport(result: BaselineResult): string[] {
  const lines = [
    `| benchmark | this build, ms | ${result.baselineCommit}, ms | ÷ ${result.baselineCommit} | × floor (this) | × floor (${result.baselineCommit}) | CPU ms (this / ${result.baselineCommit}) | CPU ÷ |`,
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...result.rows.map(
      (row) =>
        `| ${row.name} | ${row.current.medianMs} | ${row.baseline.medianMs} | ${row.ratio} | ${row.currentFloor} | ${row.baselineFloor} | ${row.current.cpuMedianMs ?? "-"} / ${row.baseline.cpuMedianMs ?? "-"} | ${row.cpuRatio ?? "-"} |`,
    ),
    `floor \`bun -e 0\`: ${result.floorMs} ms (mean of the groups' medians)`,
  ];
  return [...lines, ...targetLines(result.targets)];
}

if (import.meta.main) {
  await runBenchmarkAlone({
    name: "uwf-bench-baseline-",
    plans: BASELINE_PLANS,
    measure: async (options) => {
      const result = await measureBaselineSteps(options);
      if (options.plan === BASELINE_PLANS.full) {
        writeFileSync(
          join(repositoryRoot, "bench/results/baseline-steps.json"),
          `${JSON.stringify({ measuredAt: new Date().toISOString(), ...result }, null, 2)}\n`,
        );
      }
      return result;
    },
    report: baselineReport,
  });
}
