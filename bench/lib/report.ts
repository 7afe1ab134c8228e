/** The benchmark's results as data, as a markdown table and as a list of targets met or missed. */

import { type BaselineResult, baselineReport } from "./baseline-step-benchmarks.ts";
import type { BranchBenchResult } from "./branch-benchmarks.ts";
import type { DueWorkBenchResult } from "./due-work-benchmarks.ts";
import type { EnumValidationResult } from "./enum-workflow.ts";
import type { EvalScoringResult } from "./eval-benchmarks.ts";
import type { ExploreBenchResult } from "./explore-benchmark.ts";
import { type HotCommandResult, hotCommandReport } from "./hot-command-benchmarks.ts";
import type { ThroughputResult, WholeStoreResult } from "./in-process.ts";
import { formatLiveLatency, type LiveLatencyRun } from "./live-feed-benchmark.ts";
import type { Summary } from "./measure.ts";
import { formatReplayOtelMcp, type ReplayOtelMcpResult } from "./replay-otel-mcp-benchmarks.ts";
import type { SearchResult } from "./search-benchmark.ts";
import type { StartupVariant } from "./startup-split.ts";
import type { StepTrace } from "./step-trace.ts";
import type { SuiteBenchResult } from "./suite-benchmark.ts";
import type { UiApiResult } from "./ui-api-benchmarks.ts";
import type { TakeoverRun, ThroughputRun } from "./worker-benchmarks.ts";

export interface ProcessBenchmark {
  id: string;
  name: string;
  store: string;
  summary: Summary;
  /** The median of `bun -e 0` measured round-robin with this benchmark's group. */
  floorMedianMs: number;
  /** Median divided by that floor. */
  floorMultiple: number;
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

export interface BenchResults {
  mode: "full" | "smoke";
  date: string;
  commit: string | null;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    os: string;
    bun: string;
    loadAverage: { start: number[]; end: number[] };
  };
  binary: string;
  /** Every floor sample of the run; each group of benchmarks had its own, measured round-robin with it. */
  floor: { command: string; summary: Summary; lowestGroupMedianMs: number; highestGroupMedianMs: number };
  stores: { name: string; threads: number; nodes: number; generateSeconds: number; nodesPerSecond: number }[];
  processes: ProcessBenchmark[];
  /** Module graphs compiled on their own and timed as processes. */
  startup: { floor: Summary; variants: StartupVariant[] };
  /** Where a step's time goes: the phases the CLI reports under UWF_TRACE, per thread length. */
  stepPhases: { steps: number; agent: "scripted" | "command"; store?: "postgres"; trace: StepTrace }[];
  throughput: ThroughputResult;
  wholeStore: WholeStoreResult & { store: string; nodes: number };
  /** Issue 20: `uwf worker` processes over a queue, and the takeover of a killed worker's thread. */
  workers: {
    cpus: number;
    threads: number;
    pollMs: number;
    leaseLifetimeMs: number;
    throughput: ThroughputRun[];
    takeover: TakeoverRun[];
  };
  /** Issue 25 item 9: the checks of a workflow whose schema has a 100,000-value enum, in-process. */
  enumValidation: EnumValidationResult;
  /** Issue 29: stored threads scored with three JSONata assertions, as a process and by phase in-process. */
  evalScoring: EvalScoringResult;
  uiApi: UiApiResult;
  /** Issue 29: a suite of 100 scripted runs (runSuite, in-process) against `step - --all --parallel 4` of the same threads. */
  suite: SuiteBenchResult;
  /** Issue 47: `uwf explore` of a 20-step thread × 5 samples against `step - --all --parallel 4` of the same 100 forks. */
  explore: ExploreBenchResult;
  /** Issue 31: a 100-branch fan-out made, 100 branches joined against 100 forks stepped, the join's reads. */
  branches: BranchBenchResult;
  /** Issue 32: a worker's round of due work (suspension deadlines, schedules), idle and with work due; `uwf tick`. */
  dueWork: DueWorkBenchResult;
  /** Issue 43: `uwf step` and `--version` side by side with the a61ccc8 build. */
  baselineSteps: BaselineResult;
  /** Issue 43 item 4: list, diff, tick, a 100,000-value enum's validate, node writes, the idle pass's growth. */
  hotCommands: HotCommandResult;
  /** Issues 33 and 34: `uwf replay` of a family, `uwf scenario export`, live OTLP export's cost on a step, `uwf mcp`. */
  replayOtelMcp: ReplayOtelMcpResult;
  /** Issue 30: a step recorded by a separate `uwf step` process, timed to the store's change feed. */
  live: LiveLatencyRun[];
  /** Issue 46 item 5: the ref store's thread search over 100,000 indexed threads (optional: older results lack it). */
  search?: SearchResult;
  targets: TargetCheck[];
  seconds: number;
}

export function formatResults(results: BenchResults): string {
  const lines: string[] = [];
  const floor = results.floor.summary;
  lines.push(
    `uwf benchmark (${results.mode}), ${results.date}, ${results.machine.cpus} × ${results.machine.cpuModel}, Bun ${results.machine.bun}`,
    "",
    `Floor \`${results.floor.command}\`: median ${ms(floor.medianMs)} (min ${ms(floor.minMs)}, max ${ms(floor.maxMs)}, ${floor.runs} runs), measured round-robin with each group of benchmarks; group medians ${ms(results.floor.lowestGroupMedianMs)}–${ms(results.floor.highestGroupMedianMs)}. "× floor" divides by the floor of the benchmark's own group.`,
    "",
    "| benchmark | store | runs | median | min | max | floor | × floor |",
    "|---|---|--:|--:|--:|--:|--:|--:|",
  );
  for (const benchmark of results.processes) {
    const { summary } = benchmark;
    lines.push(
      `| ${benchmark.name} | ${benchmark.store} | ${summary.runs} | ${ms(summary.medianMs)} | ${ms(summary.minMs)} | ${ms(summary.maxMs)} | ${ms(benchmark.floorMedianMs)} | ${benchmark.floorMultiple.toFixed(1)} |`,
    );
  }
  const { throughput, wholeStore } = results;
  const { variants, floor: splitFloor } = results.startup;
  const empty = variants[0]?.summary.medianMs ?? 0;
  lines.push(
    "",
    `| start-up: compiled on its own (floor ${ms(splitFloor.medianMs)}) | median | − empty program | × floor |`,
    "|---|--:|--:|--:|",
  );
  for (const variant of variants) {
    const { medianMs } = variant.summary;
    lines.push(
      `| ${variant.name} | ${ms(medianMs)} | ${ms(medianMs - empty)} | ${(medianMs / splitFloor.medianMs).toFixed(1)} |`,
    );
  }
  const phases = results.stepPhases[0]?.trace.phases.map((entry) => entry.phase) ?? [];
  lines.push(
    "",
    `| step phase (UWF_TRACE), median ms | ${results.stepPhases.map((entry) => `${count(entry.steps)}-step thread${entry.agent === "command" ? ", command agent" : ""}${entry.store === "postgres" ? ", PostgreSQL" : ""}`).join(" | ")} |`,
    `|---|${results.stepPhases.map(() => "--:").join("|")}|`,
  );
  for (const phase of phases) {
    const cells = results.stepPhases.map(
      (entry) => entry.trace.phases.find((candidate) => candidate.phase === phase)?.ms.toFixed(1) ?? "–",
    );
    lines.push(
      `| ${phase === "started" ? "runtime start (to the first line of uwf)" : phase} | ${cells.join(" | ")} |`,
    );
  }
  lines.push(
    "",
    "| in-process | result |",
    "|---|--:|",
    `| canonical encoding / XXH64 / JSON.stringify, µs per node (mean ${throughput.encoding.meanBytes} B) | ${throughput.encoding.canonicalUs} / ${throughput.encoding.hashUs} / ${throughput.encoding.jsonStringifyUs} |`,
    `| nodes written per second, non-durable, putMany batches of ${throughput.writeBatch.batchSize} (${count(throughput.writeBatch.count)} nodes) | ${count(throughput.writeBatch.perSecond)} |`,
    `| nodes read per second, get (${count(throughput.read.count)} nodes) | ${count(throughput.read.perSecond)} |`,
    `| durable step commit (putMany of 6 nodes, durable), median ms (min–max, ${throughput.durableSteps.steps} steps) | ${throughput.durableSteps.medianMs} (${throughput.durableSteps.minMs}–${throughput.durableSteps.maxMs}) |`,
    `| nodes written per second, durable per-step batches | ${count(throughput.durableSteps.nodesPerSecond)} |`,
    `| the same steps committed one file at a time (6 durable puts in sequence), median ms | ${throughput.durableSteps.perFileMedianMs} |`,
    `| file system floor: create one small file, µs / write + fsync one file, ms | ${throughput.fileSystem.createUs} / ${throughput.fileSystem.createAndFsyncMs} |`,
    `| verify, ${count(wholeStore.nodes)}-node store (${wholeStore.store}) | ${seconds(wholeStore.verify.ms)} (${count(wholeStore.verify.checked)} checked, ${wholeStore.verify.problems} problems) |`,
    `| gc, same store, no grace period | ${seconds(wholeStore.gc.ms)} (${count(wholeStore.gc.reachable)} reachable, ${count(wholeStore.gc.deleted)} deleted) |`,
    "",
    ...formatWorkers(results.workers, results.processes),
    "",
    `| suite of ${results.suite.runs} scripted runs (${results.suite.stepsPerRun} steps each), --parallel ${results.suite.parallel} | median ms (min–max) |`,
    "|---|--:|",
    `| runSuite in one process: threads started and stepped | ${results.suite.suite.medianMs} (${results.suite.suite.minMs}–${results.suite.suite.maxMs}) |`,
    `| \`uwf step - --all --parallel ${results.suite.parallel}\` over the same threads, started beforehand | ${results.suite.stepBatch.medianMs} (${results.suite.stepBatch.minMs}–${results.suite.stepBatch.maxMs}) |`,
    "",
    `| explore of a ${results.explore.steps}-step thread × ${results.explore.samples} samples (${results.explore.forks} forks), --parallel ${results.explore.parallel} | median ms (min–max) |`,
    "|---|--:|",
    `| \`uwf explore\`: forks made, run to their ends, scored and stored | ${results.explore.explore.medianMs} (${results.explore.explore.minMs}–${results.explore.explore.maxMs}) |`,
    `| \`uwf step - --all --parallel ${results.explore.parallel}\` over the same forks, made beforehand | ${results.explore.stepBatch.medianMs} (${results.explore.stepBatch.minMs}–${results.explore.stepBatch.maxMs}) |`,
    "",
    ...formatBranches(results.branches),
    "",
    ...formatDueWork(results.dueWork),
    "",
    ...baselineReport(results.baselineSteps).filter((line) => line.startsWith("|") || line.startsWith("floor")),
    "",
    ...hotCommandReport(results.hotCommands).filter((line) => !/^(met|MISSED):/.test(line)),
    "",
    ...formatReplayOtelMcp(results.replayOtelMcp),
    "",
    ...formatLiveLatency(results.live),
    "",
    "| target | measured | met |",
    "|---|---|---|",
  );
  for (const target of results.targets)
    lines.push(`| ${target.target} | ${target.measured} | ${target.met ? "yes" : "**no**"} |`);
  lines.push("", "| store | threads | nodes | generated in | nodes/s |", "|---|--:|--:|--:|--:|");
  for (const store of results.stores) {
    lines.push(
      `| ${store.name} | ${count(store.threads)} | ${count(store.nodes)} | ${store.generateSeconds.toFixed(1)} s | ${count(store.nodesPerSecond)} |`,
    );
  }
  return lines.join("\n");
}

/** The issue's targets, checked against one run. */
export function checkTargets(
  processes: readonly ProcessBenchmark[],
  throughput: ThroughputResult,
  stepSizes: readonly number[],
  readSteps: number,
  enumValidation: EnumValidationResult,
): TargetCheck[] {
  const byId = new Map(processes.map((benchmark) => [benchmark.id, benchmark]));
  const get = (id: string) => {
    const benchmark = byId.get(id);
    if (benchmark === undefined) throw new Error(`no benchmark ${id}`);
    return benchmark;
  };
  const targets: TargetCheck[] = [];
  for (const steps of stepSizes) {
    for (const store of ["small", "large"]) {
      const step = get(`step-${store}-${steps}`);
      targets.push({
        target: `\`uwf step\` on a ${count(steps)}-step thread, ${step.store}: within 5× the floor`,
        measured: `${ms(step.summary.medianMs)} = ${step.floorMultiple.toFixed(1)}×`,
        met: step.floorMultiple <= 5,
      });
    }
    const small = get(`step-small-${steps}`).summary.medianMs;
    const large = get(`step-large-${steps}`).summary.medianMs;
    const change = large / small - 1;
    targets.push({
      target: `\`uwf step\` on a ${count(steps)}-step thread: same (±10%) in the large store as in the small one`,
      measured: `${ms(large)} vs ${ms(small)} (${change >= 0 ? "+" : ""}${(change * 100).toFixed(1)}%)`,
      met: Math.abs(change) <= 0.1,
    });
  }
  // Issue 18 item 6: the step with the in-process scripted agent, and the same step with a program as its agent.
  const shortest = stepSizes[0] as number;
  const scripted = get(`step-small-${shortest}`);
  targets.push({
    target: `\`uwf step\` on a ${count(shortest)}-step thread, ${scripted.store}, scripted agent: within 3.5× the floor`,
    measured: `${ms(scripted.summary.medianMs)} = ${scripted.floorMultiple.toFixed(1)}×`,
    met: scripted.floorMultiple <= 3.5,
  });
  const command = get(`step-small-${shortest}-command`);
  targets.push({
    target: `\`uwf step\` on a ${count(shortest)}-step thread, ${command.store}, /bin/sh command agent: within 4× the floor`,
    measured: `${ms(command.summary.medianMs)} = ${command.floorMultiple.toFixed(1)}× (${ms(command.summary.medianMs - scripted.summary.medianMs)} more than the scripted agent)`,
    met: command.floorMultiple <= 4,
  });
  const version = get("version");
  targets.push({
    target: "`uwf --version` within 3× the floor",
    measured: `${ms(version.summary.medianMs)} = ${version.floorMultiple.toFixed(1)}×`,
    met: version.floorMultiple <= 3,
  });
  const list = get("list-limit");
  targets.push({
    target: `\`uwf list --limit 50\` within 5× the floor (${list.store})`,
    measured: `${ms(list.summary.medianMs)} = ${list.floorMultiple.toFixed(1)}×`,
    met: list.floorMultiple <= 5,
  });
  const read = get("read");
  targets.push({
    target: `\`uwf read\` of ${count(readSteps)} steps under 1 s`,
    measured: ms(read.summary.medianMs),
    met: read.summary.medianMs < 1000,
  });
  // The checks were quadratic in the enum's length; parsing the YAML (the yaml library, about 10 µs a
  // value) is the rest of the whole command's time, reported beside it.
  const validateEnum = get("validate-enum");
  targets.push({
    target: `checking a workflow whose schema has a ${count(enumValidation.values)}-value enum within 1 s`,
    measured: `${ms(enumValidation.validateMs)} (the whole \`uwf workflow validate\`, YAML parsing included: ${ms(validateEnum.summary.medianMs)})`,
    met: enumValidation.validateMs <= 1000,
  });
  targets.push({
    target: "in-process node writes: at least 20,000 per second, non-durable batch",
    // The file system's own speed, measured in the same run: after mass deletes it can be several times slower.
    measured: `${count(throughput.writeBatch.perSecond)} per second (one small file created in ${throughput.fileSystem.createUs} µs)`,
    met: throughput.writeBatch.perSecond >= 20_000,
  });
  const { durableSteps } = throughput;
  targets.push({
    target: "durable step commit: what a step wrote is synced as one fsync batch per step, not one per file",
    measured: `${durableSteps.medianMs} ms per 6-node step, against ${durableSteps.perFileMedianMs} ms one file at a time (${(durableSteps.perFileMedianMs / durableSteps.medianMs).toFixed(1)}× faster)`,
    // The batching itself is in the code (writeObjectFiles); the run checks that it pays.
    met: durableSteps.medianMs < durableSteps.perFileMedianMs,
  });
  return targets;
}

function ms(value: number): string {
  return value >= 1000 ? seconds(value) : `${value.toFixed(1)} ms`;
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(2)} s`;
}

function count(value: number): string {
  return value.toLocaleString("en-US");
}

function formatWorkers(workers: BenchResults["workers"], processes: readonly ProcessBenchmark[]): string[] {
  const lines: string[] = [];
  const embedded = processes.find((process) => process.id === "step-small-1");
  const postgres = processes.find((process) => process.id === "step-postgres-1");
  if (embedded !== undefined && postgres !== undefined) {
    lines.push(
      `\`uwf step\` of a 1-step thread, scripted agent, on PostgreSQL: ${ms(postgres.summary.medianMs)} against ${ms(embedded.summary.medianMs)} on the embedded store, ${(postgres.summary.medianMs / embedded.summary.medianMs).toFixed(2)}×.`,
      "",
    );
  }
  lines.push(
    `| workers × --concurrency (${count(workers.threads)} threads of 2 steps, /bin/sh agent, ${workers.cpus} cores) | store | steps/s | × 1 worker | CPU busy |`,
    "|---|---|--:|--:|--:|",
  );
  for (const run of workers.throughput) {
    lines.push(
      `| ${run.workers} × ${run.concurrency} | ${run.backend} | ${run.stepsPerSecond.toFixed(1)} | ${run.speedUp.toFixed(2)} | ${run.cpuBusy === null ? "–" : `${Math.round(run.cpuBusy * 100)}%`} |`,
    );
  }
  lines.push(
    "",
    `| takeover (lease ${seconds(workers.leaseLifetimeMs)}, survivor polling every ${workers.pollMs} ms) | store | signal → claimed | signal → lease expiry | signal → released |`,
    "|---|---|--:|--:|--:|",
  );
  for (const run of workers.takeover) {
    lines.push(
      `| ${run.signal}, ${run.otherHost ? "another host" : "same host"} | ${run.backend} | ${ms(run.takeoverMs)} | ${run.leaseExpiresInMs === null ? "–" : ms(run.leaseExpiresInMs)} | ${run.releasedAfterMs === null ? "–" : ms(run.releasedAfterMs)} |`,
    );
  }
  return lines;
}

/** How long "at once" may take: a few of the survivor's polls and a claim, far below any lease. */
const AT_ONCE_MS = 1000;

/**
 * Issue 20 item 5: throughput grows with workers until the cores are busy, a dead local worker's thread and
 * a drained worker's thread are taken over at once, one from another host within the lease's lifetime.
 */
export function checkWorkerTargets(workers: BenchResults["workers"]): TargetCheck[] {
  const targets: TargetCheck[] = [];
  for (const backend of ["embedded", "postgres"] as const) {
    const byCount = workers.throughput.filter((run) => run.backend === backend && run.concurrency === 1);
    // Up to the machine's cores more workers must mean more steps per second; past them, no collapse.
    const withinCores = byCount.filter((run) => run.workers <= workers.cpus);
    const beyond = byCount.filter((run) => run.workers > workers.cpus);
    const best = Math.max(...byCount.map((run) => run.stepsPerSecond));
    const atCores = withinCores.at(-1);
    const one = byCount[0];
    if (one === undefined || atCores === undefined) continue;
    targets.push({
      target: `workers, ${backend}: steps/s grow with worker processes up to the ${workers.cpus} cores, and hold beyond (≥ 80% of the best)`,
      measured: byCount
        .map(
          (run) =>
            `${run.workers}: ${run.stepsPerSecond.toFixed(1)}/s (CPU ${run.cpuBusy === null ? "?" : `${Math.round(run.cpuBusy * 100)}%`})`,
        )
        .join(", "),
      met:
        (atCores === one || atCores.stepsPerSecond > one.stepsPerSecond * 1.1) &&
        beyond.every((run) => run.stepsPerSecond >= best * 0.8),
    });
  }
  for (const run of workers.takeover) {
    const where = `${run.backend}, ${run.otherHost ? "another host" : "same host"}`;
    if (run.otherHost) {
      targets.push({
        target: `takeover after SIGKILL from another host (${where}): once the lease expires, within its ${seconds(run.leaseLifetimeMs)}`,
        measured: `${ms(run.takeoverMs)} after the signal, the lease expiring ${run.leaseExpiresInMs === null ? "?" : ms(run.leaseExpiresInMs)} after it`,
        met:
          run.leaseExpiresInMs !== null &&
          run.takeoverMs >= run.leaseExpiresInMs &&
          run.takeoverMs <= run.leaseLifetimeMs + AT_ONCE_MS,
      });
    } else if (run.signal === "SIGKILL") {
      targets.push({
        target: `takeover after SIGKILL (${where}): at once (under ${ms(AT_ONCE_MS)})`,
        measured: ms(run.takeoverMs),
        met: run.takeoverMs <= AT_ONCE_MS,
      });
    } else {
      const afterRelease = run.takeoverMs - (run.releasedAfterMs ?? 0);
      targets.push({
        target: `takeover after SIGTERM (${where}): the drained lease claimed at once (under ${ms(AT_ONCE_MS)} after its release)`,
        measured: `released ${run.releasedAfterMs === null ? "?" : ms(run.releasedAfterMs)} after the signal, claimed ${ms(afterRelease)} later`,
        met: afterRelease <= AT_ONCE_MS,
      });
    }
  }
  return targets;
}

function formatBranches(result: BranchBenchResult): string[] {
  const span = (summary: Summary) => `${summary.medianMs} (${summary.minMs}–${summary.maxMs})`;
  return [
    `| branches (issue 31), ${result.branches} role branches, --parallel ${result.parallel} | median ms (min–max) |`,
    "|---|--:|",
    `| \`uwf step PARENT\`: the fan-out step and its ${result.branches} branch threads (${result.fanOutFloorMultiple}× the floor) | ${span(result.fanOut)} |`,
    `| \`uwf fork HEAD --count ${result.branches}\`, for reference | ${span(result.fork100)} |`,
    `| floor (\`bun -e 0\`), measured with the two above | ${span(result.floor)} |`,
    `| \`uwf step PARENT --all --parallel ${result.parallel}\`: ${result.branches} branch steps and the join | ${span(result.joinAll)} |`,
    `| \`uwf step - --all --parallel ${result.parallel}\` of ${result.branches} forks at a thread's first step, plus \`uwf step\` of one more | ${span(result.forksPlusOne)} |`,
    ...result.join.map(
      (entry) =>
        `| the join step of ${entry.branches} branches of ${entry.ownSteps} own step${entry.ownSteps === 1 ? "" : "s"} each, in-process (${entry.reads} nodes read) | ${span(entry.step)} |`,
    ),
  ];
}

function formatDueWork(result: DueWorkBenchResult): string[] {
  const span = (summary: Summary) => `${summary.medianMs} (${summary.minMs}–${summary.maxMs})`;
  const { idle, due, tick } = result;
  const store = `${count(result.suspended)} suspended threads (${count(result.timed)} with a \`suspendTimeout: 24h\`), ${count(result.schedules)} schedules`;
  return [
    `| due work (issue 32), ${store}, in-process unless a command | median ms (min–max) |`,
    "|---|--:|",
    `| a worker's round with nothing due, first pass: suspensions + schedules | ${idle.first.suspensionsMs} + ${idle.first.schedulesMs} = ${idle.first.totalMs} |`,
    `| the same round, steady (${idle.steady.total.runs} pass${idle.steady.total.runs === 1 ? "" : "es"} after the first; target under ${idle.targetMs} ms) | ${span(idle.steady.total)} |`,
    `| of it, expireDueSuspensions (listing the suspended threads alone: ${idle.listing.medianMs}) / fireDueSchedules | ${idle.steady.suspensions.medianMs} / ${idle.steady.schedules.medianMs} |`,
    `| the round with ${due.dueSuspensions} suspensions and ${due.dueSchedules} schedules due (${due.total.runs} pass${due.total.runs === 1 ? "" : "es"}, each on a fresh copy) | ${span(due.total)} |`,
    `| of it, ${due.dueSuspensions} suspensions timed out / ${due.dueSchedules} schedules fired | ${due.suspensions.medianMs} / ${due.schedules.medianMs} |`,
    `| per suspension timed out / per schedule fired / per item | ${due.perSuspensionMs} / ${due.perScheduleMs} / ${due.perItemMs} |`,
    `| \`uwf tick\` with nothing due (${tick.floorMultiple}× the floor) | ${span(tick.summary)} |`,
    `| \`uwf tick\` on an empty store | ${span(tick.emptyStore)} |`,
    `| floor (\`bun -e 0\`), measured with both | ${span(tick.floor)} |`,
  ];
}
