/**
 * Issue 43 item 4, `uwf diff` of two long threads that part in the middle: two compiled builds side by side
 * on one store, round-robin with the floor (`bun -e 0`), so a loaded machine slows all three alike.
 *
 * The pair is written once (bench/generate-fork-store.ts, as the engine leaves it); the before build gets a
 * copy rolled back to its own ref schema (an older build refuses a newer store), which is what such a home
 * looked like under it. Both builds must print the same diff, text and `--json`, before anything is timed.
 * Each round runs the floor and both builds, the builds' order alternating; a row is the medians of the wall
 * time and of the CPU time (user + system, the operating system's accounting of the finished process), and
 * the median of the per-round ratios after ÷ before.
 *
 *   bun bench/lib/diff-ab.ts --before BINARY [--after BINARY] [--pair 1000,499] [--runs 21] [--warmup 2]
 *
 * Without --after, the CLI is built from the sources as they are (packages/cli/dist/uwf).
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { REF_SCHEMA_VERSION } from "../../packages/cas/src/index.ts";
import { rollBackRefDatabase } from "../../packages/cas/src/testing/index.ts";
import { generateForkStore } from "../generate-fork-store.ts";
import { round, summarize } from "./measure.ts";

const repositoryRoot = resolve(import.meta.dir, "../..");

interface Sample {
  wallMs: number;
  cpuMs: number;
}

const { values } = parseArgs({
  options: {
    before: { type: "string" },
    after: { type: "string" },
    pair: { type: "string", default: "1000,499" },
    runs: { type: "string", default: "21" },
    warmup: { type: "string", default: "2" },
  },
});
if (values.before === undefined) {
  console.error("usage: bun bench/lib/diff-ab.ts --before BINARY [--after BINARY] [--pair 1000,499] [--runs 21]");
  process.exit(2);
}
const before = resolve(values.before);
let after = values.after === undefined ? undefined : resolve(values.after);
if (after === undefined) {
  const build = Bun.spawnSync([process.execPath, "run", "build"], { cwd: repositoryRoot, stdout: "inherit" });
  if (build.exitCode !== 0) throw new Error("bun run build failed");
  after = join(repositoryRoot, "packages/cli/dist/uwf");
}
const [pairSteps, pairCommonSteps] = values.pair.split(",").map(Number) as [number, number];
const runs = Number(values.runs);
const warmup = Number(values.warmup);

const root = mkdtempSync(join(tmpdir(), "uwf-diff-ab-"));
try {
  const afterHome = join(root, "after-home");
  const work = join(root, "work");
  const store = await generateForkStore({
    home: afterHome,
    pairSteps,
    pairCommonSteps,
    familyRootSteps: 1,
    familyForks: 1,
    sourceSteps: 1,
    cwd: work,
  });
  const beforeHome = join(root, "before-home");
  cpSync(afterHome, beforeHome, { recursive: true });
  const beforeSchema = schemaOf(before);
  if (beforeSchema < REF_SCHEMA_VERSION) rollBackRefDatabase(join(beforeHome, "refs.db"), beforeSchema);
  Bun.spawnSync(["sync"]);

  const environment = (home: string) => {
    const { UWF_STORE: _store, UWF_HOME: _home, UWF_TRACE: _trace, ...rest } = process.env;
    return { ...rest, UWF_HOME: home, HOME: root, NO_COLOR: "1" };
  };
  const [left, right] = store.pair;
  const builds = { before: { binary: before, home: beforeHome }, after: { binary: after, home: afterHome } };
  for (const extra of [[], ["--json"], ["--bodies"]]) {
    const printed = Object.values(builds).map(({ binary, home }) => {
      const run = Bun.spawnSync([binary, "diff", left, right, ...extra], { env: environment(home), cwd: root });
      if (run.exitCode !== 0) throw new Error(`${binary} diff failed: ${run.stderr.toString()}`);
      return run.stdout.toString();
    });
    if (printed[0] !== printed[1]) throw new Error(`the builds print different diffs (${extra.join(" ") || "text"})`);
  }

  const loadAtStart = loadavg();
  const floor: Sample[] = [];
  const samples: Record<"before" | "after", Sample[]> = { before: [], after: [] };
  for (let roundIndex = 0; roundIndex < warmup + runs; roundIndex++) {
    const keep = roundIndex >= warmup;
    const floorRun = timed([process.execPath, "-e", "0"], environment(root));
    if (keep) floor.push(floorRun);
    const order = roundIndex % 2 === 0 ? (["before", "after"] as const) : (["after", "before"] as const);
    for (const name of order) {
      const { binary, home } = builds[name];
      const run = timed([binary, "diff", left, right], environment(home));
      if (keep) samples[name].push(run);
    }
  }
  const median = (list: readonly number[]) => summarize(list).medianMs;
  const floorMs = median(floor.map((sample) => sample.wallMs));
  const row = (name: "before" | "after") => ({
    wallMs: median(samples[name].map((sample) => sample.wallMs)),
    cpuMs: median(samples[name].map((sample) => sample.cpuMs)),
    floorMultiple: round(median(samples[name].map((sample, index) => sample.wallMs / (floor[index] as Sample).wallMs))),
  });
  const result = {
    what: `uwf diff of two ${pairSteps}-step threads that part at step ${pairCommonSteps + 1}`,
    runs,
    floor: { wallMs: floorMs, cpuMs: median(floor.map((sample) => sample.cpuMs)) },
    before: { binary: before, schema: beforeSchema, ...row("before") },
    after: { binary: after, schema: REF_SCHEMA_VERSION, ...row("after") },
    medianPairRatio: round(
      median(samples.after.map((sample, index) => sample.wallMs / (samples.before[index] as Sample).wallMs)),
      3,
    ),
    loadAverage: { start: loadAtStart.map((load) => round(load)), end: loadavg().map((load) => round(load)) },
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  rmSync(root, { recursive: true, force: true });
}

/** The ref schema a build writes (`uwf version --json`). */
function schemaOf(binary: string): number {
  const run = Bun.spawnSync([binary, "version", "--json"]);
  return (JSON.parse(run.stdout.toString()) as { storeSchemaVersion: number }).storeSchemaVersion;
}

/** One run's wall time and CPU time; it must succeed. */
function timed(command: string[], env: Record<string, string | undefined>): Sample {
  const began = Bun.nanoseconds();
  const run = Bun.spawnSync(command, { env, cwd: root, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const wallMs = (Bun.nanoseconds() - began) / 1e6;
  if (run.exitCode !== 0) throw new Error(`${command.join(" ")} exited with ${run.exitCode}: ${run.stderr.toString()}`);
  const cpu = run.resourceUsage?.cpuTime.total ?? 0n;
  return { wallMs, cpuMs: Number(cpu) / 1000 };
}
