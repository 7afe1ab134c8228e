/**
 * Issue 43 item 4: the everyday commands besides `uwf step`, each against its target.
 * 1. Processes, round-robin with the floor (`bun -e 0`), so each ratio divides by a floor of the same minutes:
 *    `uwf list --limit 50` on a store of `threads` threads (≤ 4× the floor); `uwf diff A B` of two 1,000-step
 *    threads that part at step 500 (≤ 8×); `uwf tick` with nothing due on a store of `tickSuspended` suspended
 *    threads, half of them with a 24h `suspendTimeout` (≤ 4×); `uwf workflow validate` of a workflow whose
 *    schema has a 100,000-value enum, the whole command (≤ 1 s).
 * 2. Node writes in-process: non-durable `putMany` batches of 4,096 realistic step nodes (≥ 20,000 a second).
 * 3. A worker's idle pass of due work (expireDueSuspensions then fireDueSchedules, as run-worker.ts runs them)
 *    over stores of 10 and of 10,000 suspended threads, half with a deadline a day away, none due: constant in
 *    the number of suspended threads (the larger store's steady pass within 1.5× of the smaller's, or 1 ms).
 * The stores are generated in-process: the list store and the diff pair as bench/generate-store.ts and
 * bench/generate-fork-store.ts write them, the suspended threads through the engine (due-work-benchmarks.ts).
 * Run alone with `bun bench/lib/hot-command-benchmarks.ts [--smoke]` (builds the binary if missing).
 */
import { mkdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { openFileStore } from "../../packages/cas/src/index.ts";
import { defaultConfig } from "../../packages/protocol/src/index.ts";
import { generateForkStore } from "../generate-fork-store.ts";
import { generateStore } from "../generate-store.ts";
import { buildDueWorkStore, duePass, writeDueWorkFiles } from "./due-work-benchmarks.ts";
import { writeEnumWorkflow } from "./enum-workflow.ts";
import { buildStepNodes } from "./in-process.ts";
import { type MeasureProcessOptions, measureInterleaved, round, type Summary, summarize } from "./measure.ts";
import type { TargetCheck } from "./report.ts";
import { type AloneOptions, runBenchmarkAlone, targetLines } from "./run-benchmark-alone.ts";

export interface HotCommandPlan {
  /** Threads of the store `list` runs on. */
  threads: number;
  /** Steps of each thread of the diff's pair, and how many of them the two share. */
  pairSteps: number;
  pairCommonSteps: number;
  /** Suspended threads of the store `tick` runs on. */
  tickSuspended: number;
  /** Suspended threads of the stores of the idle pass: a small and a large one. */
  idleSizes: [number, number];
  /** Idle passes after the first one. */
  idlePasses: number;
  /** Steps (six nodes each) of each round of node writes, and the rounds. */
  writeSteps: number;
  writeRounds: number;
  runs: number;
  warmup: number;
}

export const HOT_COMMAND_PLANS: { full: HotCommandPlan; smoke: HotCommandPlan } = {
  full: {
    threads: 100_000,
    pairSteps: 1000,
    pairCommonSteps: 499,
    tickSuspended: 1000,
    idleSizes: [10, 10_000],
    idlePasses: 30,
    writeSteps: 3400,
    writeRounds: 5,
    runs: 15,
    warmup: 2,
  },
  smoke: {
    threads: 500,
    pairSteps: 100,
    pairCommonSteps: 49,
    tickSuspended: 20,
    idleSizes: [10, 100],
    idlePasses: 5,
    writeSteps: 300,
    writeRounds: 1,
    runs: 3,
    warmup: 1,
  },
};

/** Each process benchmark's target: at most this many times the floor, or (validate) this many milliseconds. */
const TARGETS = { list: 4, diff: 8, tick: 4, validateMs: 1000, nodesPerSecond: 20_000 } as const;
/** The idle pass is constant when the larger store's is within this factor of the smaller's, or this many ms. */
const IDLE_FACTOR = 1.5;
const IDLE_SLACK_MS = 1;

export interface HotProcessRow {
  id: "list" | "diff" | "tick" | "validate";
  name: string;
  summary: Summary;
  floorMultiple: number;
}

export interface IdlePassRow {
  suspended: number;
  /** Of them, with a deadline (a day away). */
  timed: number;
  buildSeconds: number;
  firstMs: number;
  steady: Summary;
}

export interface HotCommandResult {
  floor: Summary;
  processes: HotProcessRow[];
  nodeWrites: { nodes: number; rounds: number; perSecond: number[]; medianPerSecond: number };
  idlePasses: IdlePassRow[];
  loadAverage: { start: number[]; end: number[] };
  targets: TargetCheck[];
}

export async function measureHotCommands(options: AloneOptions<HotCommandPlan>): Promise<HotCommandResult> {
  const { plan, progress } = options;
  const root = join(options.temporaryRoot, "hot-commands");
  const work = join(root, "work");
  mkdirSync(work, { recursive: true });
  try {
    progress(`hot commands: a store of ${plan.threads.toLocaleString("en-US")} threads for list`);
    const listStore = await generateStore({ home: join(root, "list-home"), fillerThreads: plan.threads, cwd: work });
    progress(`hot commands: two ${plan.pairSteps}-step threads for diff`);
    const forkStore = await generateForkStore({
      home: join(root, "diff-home"),
      pairSteps: plan.pairSteps,
      pairCommonSteps: plan.pairCommonSteps,
      familyRootSteps: 1,
      familyForks: 1,
      sourceSteps: 1,
      cwd: work,
    });
    const files = writeDueWorkFiles(root);
    const noneDue = { schedules: 10, dueSuspensions: 0, dueSchedules: 0 };
    progress(`hot commands: ${plan.tickSuspended} suspended threads for tick`);
    const tickHome = join(root, "tick-home");
    await buildDueWorkStore(tickHome, files, { ...noneDue, suspended: plan.tickSuspended });
    const enumWorkflow = writeEnumWorkflow(work);
    const emptyHome = join(root, "empty-home");
    mkdirSync(emptyHome, { recursive: true });
    Bun.spawnSync(["sync"]);
    const loadAtStart = loadavg();

    const process = (home: string, command: string[], cwd = work): MeasureProcessOptions => ({
      command,
      cwd,
      env: options.environment(home),
      runs: plan.runs,
      warmup: plan.warmup,
    });
    const [left, right] = forkStore.pair;
    const entries: { id: HotProcessRow["id"]; name: string; options: MeasureProcessOptions }[] = [
      {
        id: "list",
        name: `uwf list --limit 50 (${plan.threads.toLocaleString("en-US")} threads)`,
        options: process(listStore.home, [options.binary, "list", "--limit", "50"]),
      },
      {
        id: "diff",
        name: `uwf diff A B (${plan.pairSteps.toLocaleString("en-US")}-step threads that part at step ${plan.pairCommonSteps + 1})`,
        options: process(forkStore.home, [options.binary, "diff", left, right]),
      },
      {
        id: "tick",
        name: `uwf tick, nothing due (${plan.tickSuspended.toLocaleString("en-US")} suspended threads, 10 schedules)`,
        options: process(tickHome, [options.binary, "tick"], join(tickHome, "work")),
      },
      {
        id: "validate",
        name: "uwf workflow validate (100,000-value enum)",
        options: process(emptyHome, [options.binary, "workflow", "validate", enumWorkflow]),
      },
    ];
    progress("hot commands: list, diff, tick and validate round-robin with the floor");
    const [floor, ...summaries] = (await measureInterleaved([
      process(emptyHome, [globalThis.process.execPath, "-e", "0"]),
      ...entries.map((entry) => entry.options),
    ])) as [Summary, ...Summary[]];
    const processes = entries.map((entry, index): HotProcessRow => {
      const summary = summaries[index] as Summary;
      return {
        id: entry.id,
        name: entry.name,
        summary,
        floorMultiple: round(summary.medianMs / floor.medianMs),
      };
    });
    for (const row of processes)
      progress(
        `${row.name}: median ${row.summary.medianMs} ms, ${row.floorMultiple}× the floor (${floor.medianMs} ms)`,
      );

    progress("hot commands: node writes");
    const nodeWrites = await measureNodeWrites(root, plan);
    progress(`node writes: ${nodeWrites.medianPerSecond} a second (median of ${nodeWrites.rounds} rounds)`);

    const idlePasses: IdlePassRow[] = [];
    for (const suspended of plan.idleSizes) {
      progress(`hot commands: building ${suspended.toLocaleString("en-US")} suspended threads for the idle pass`);
      const home = join(root, `idle-${suspended}`);
      const buildSeconds = await buildDueWorkStore(home, files, { ...noneDue, suspended });
      Bun.spawnSync(["sync"]);
      idlePasses.push({
        suspended,
        timed: Math.floor(suspended / 2),
        buildSeconds: round(buildSeconds, 1),
        ...(await idlePass(home, plan)),
      });
      const row = idlePasses.at(-1) as IdlePassRow;
      progress(
        `idle pass over ${suspended} suspended threads: first ${row.firstMs} ms, steady median ${row.steady.medianMs} ms`,
      );
    }
    const result = {
      floor,
      processes,
      nodeWrites,
      idlePasses,
      loadAverage: { start: loadAtStart.map((value) => round(value)), end: loadavg().map((value) => round(value)) },
    };
    return { ...result, targets: hotCommandTargets(result) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Rounds of `writeSteps` steps' nodes (six each, new every round) written in non-durable batches of 4,096. */
async function measureNodeWrites(root: string, plan: HotCommandPlan): Promise<HotCommandResult["nodeWrites"]> {
  const perSecond: number[] = [];
  let nodes = 0;
  for (let roundIndex = 0; roundIndex < plan.writeRounds; roundIndex++) {
    const built = buildStepNodes(plan.writeSteps, `writes-${roundIndex}`);
    nodes = built.nodes.length;
    const home = join(root, `writes-${roundIndex}`);
    const store = await openFileStore(home);
    try {
      const began = Bun.nanoseconds();
      for (let offset = 0; offset < built.nodes.length; offset += 4096) {
        await store.objects.putMany(built.nodes.slice(offset, offset + 4096));
      }
      perSecond.push(round((built.nodes.length * 1e9) / (Bun.nanoseconds() - began), 0));
    } finally {
      await store.close();
      rmSync(home, { recursive: true, force: true });
    }
  }
  return { nodes, rounds: plan.writeRounds, perSecond, medianPerSecond: summarize(perSecond).medianMs };
}

/** One worker's rounds of due work on the store: the first (caches cold), then `idlePasses` more. */
async function idlePass(home: string, plan: HotCommandPlan): Promise<{ firstMs: number; steady: Summary }> {
  const store = await openFileStore(home);
  const config = defaultConfig();
  try {
    const totals: number[] = [];
    for (let pass = 0; pass <= plan.idlePasses; pass++) {
      const result = await duePass(store, home, config);
      if (result.expired !== 0 || result.fired !== 0) throw new Error(`${home}: the idle store had due work`);
      totals.push(result.suspensionsMs + result.schedulesMs);
    }
    const [first, ...steady] = totals as [number, ...number[]];
    return { firstMs: round(first), steady: summarize(steady) };
  } finally {
    await store.close();
  }
}

export function hotCommandTargets(result: Omit<HotCommandResult, "targets">): TargetCheck[] {
  const targets: TargetCheck[] = [];
  const row = (id: HotProcessRow["id"]) => result.processes.find((candidate) => candidate.id === id) as HotProcessRow;
  for (const id of ["list", "diff", "tick"] as const) {
    const measured = row(id);
    targets.push({
      target: `${measured.name} ≤ ${TARGETS[id]}× the floor`,
      measured: `${measured.floorMultiple}× (${measured.summary.medianMs} ms, floor ${result.floor.medianMs} ms)`,
      met: measured.floorMultiple <= TARGETS[id],
    });
  }
  const validate = row("validate");
  targets.push({
    target: `${validate.name}, the whole command ≤ ${TARGETS.validateMs} ms`,
    measured: `${validate.summary.medianMs} ms (${validate.floorMultiple}× the floor)`,
    met: validate.summary.medianMs <= TARGETS.validateMs,
  });
  targets.push({
    target: `node writes (non-durable batches of 4,096) ≥ ${TARGETS.nodesPerSecond.toLocaleString("en-US")} a second`,
    measured: `${result.nodeWrites.medianPerSecond.toLocaleString("en-US")} a second (median of ${result.nodeWrites.rounds} rounds of ${result.nodeWrites.nodes.toLocaleString("en-US")} nodes)`,
    met: result.nodeWrites.medianPerSecond >= TARGETS.nodesPerSecond,
  });
  const [small, large] = result.idlePasses as [IdlePassRow, IdlePassRow];
  if (small !== undefined && large !== undefined) {
    const bound = Math.max(small.steady.medianMs * IDLE_FACTOR, small.steady.medianMs + IDLE_SLACK_MS);
    targets.push({
      target: `a worker's idle pass constant in the suspended threads: over ${large.suspended.toLocaleString("en-US")} within ${IDLE_FACTOR}× (or ${IDLE_SLACK_MS} ms) of over ${small.suspended}`,
      measured: `${large.steady.medianMs} ms against ${small.steady.medianMs} ms (first passes ${large.firstMs} and ${small.firstMs} ms)`,
      met: large.steady.medianMs <= bound,
    });
  }
  return targets;
}

export function hotCommandReport(result: HotCommandResult): string[] {
  return [
    "| command (issue 43 item 4) | median ms | min–max | × floor |",
    "| --- | ---: | ---: | ---: |",
    ...result.processes.map(
      (row) =>
        `| ${row.name} | ${row.summary.medianMs} | ${row.summary.minMs}–${row.summary.maxMs} | ${row.floorMultiple} |`,
    ),
    `| floor \`bun -e 0\`, round-robin with them | ${result.floor.medianMs} | ${result.floor.minMs}–${result.floor.maxMs} | 1 |`,
    "",
    `node writes, non-durable batches of 4,096: ${result.nodeWrites.perSecond.join(", ")} a second (median ${result.nodeWrites.medianPerSecond})`,
    "",
    "| a worker's idle pass, nothing due | first ms | steady median ms | min–max |",
    "| --- | ---: | ---: | ---: |",
    ...result.idlePasses.map(
      (row) =>
        `| ${row.suspended.toLocaleString("en-US")} suspended threads (${row.timed.toLocaleString("en-US")} with a deadline), 10 schedules | ${row.firstMs} | ${row.steady.medianMs} | ${row.steady.minMs}–${row.steady.maxMs} |`,
    ),
    `load average ${result.loadAverage.start.join(" ")} at the start, ${result.loadAverage.end.join(" ")} at the end`,
    ...targetLines(result.targets),
  ];
}

if (import.meta.main) {
  await runBenchmarkAlone({
    name: "uwf-hot-command-bench-",
    plans: HOT_COMMAND_PLANS,
    measure: measureHotCommands,
    report: hotCommandReport,
  });
}
