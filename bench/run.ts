/**
 * The benchmark suite (`bun run bench`; `bun run bench -- --smoke` for CI's small run).
 * Builds and spawns the compiled CLI (packages/cli/dist/uwf) on generated stores in
 * temp homes, times whole processes against the machine's `bun -e 0` floor measured in the same
 * run, measures store throughput in-process, prints a markdown table and writes the same data
 * as JSON to bench/results/latest.json (smoke.json for a smoke run). See docs/performance.md.
 */

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, release, tmpdir, totalmem, type } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { copyStore, openFileStore, openPostgresStore, type Store } from "../packages/cas/src/index.ts";
import { startTestPostgres } from "../packages/cas/src/testing/index.ts";
import { type GeneratedChain, type GeneratedStore, generateStore } from "./generate-store.ts";
import { BASELINE_COMMIT, BASELINE_PLANS, measureBaselineSteps } from "./lib/baseline-step-benchmarks.ts";
import { checkBranchTargets, measureBranches } from "./lib/branch-benchmarks.ts";
import {
  checkDueWorkTargets,
  FULL_DUE_WORK_PLAN,
  measureDueWork,
  SMOKE_DUE_WORK_PLAN,
} from "./lib/due-work-benchmarks.ts";
import { measureEnumValidation, writeEnumWorkflow } from "./lib/enum-workflow.ts";
import { checkEvalTargets, measureEvalScoring } from "./lib/eval-benchmarks.ts";
import {
  checkExploreTargets,
  FULL_EXPLORE_PLAN,
  measureExploreAgainstStepBatch,
  SMOKE_EXPLORE_PLAN,
} from "./lib/explore-benchmark.ts";
import { checkForkTargets, forkBenchmarks, prepareForkStore } from "./lib/fork-benchmarks.ts";
import { HOT_COMMAND_PLANS, measureHotCommands } from "./lib/hot-command-benchmarks.ts";
import { measureThroughput, measureWholeStore } from "./lib/in-process.ts";
import { checkLiveTargets, type LiveLatencyRun, measureLiveLatency } from "./lib/live-feed-benchmark.ts";
import {
  type MeasureProcessOptions,
  measureInterleaved,
  round,
  runProcess,
  type Summary,
  summarize,
} from "./lib/measure.ts";
import {
  checkReplayOtelMcpTargets,
  FULL_REPLAY_OTEL_MCP_PLAN,
  measureReplayOtelMcp,
  SMOKE_REPLAY_OTEL_MCP_PLAN,
} from "./lib/replay-otel-mcp-benchmarks.ts";
import {
  type BenchResults,
  checkTargets,
  checkWorkerTargets,
  formatResults,
  type ProcessBenchmark,
} from "./lib/report.ts";
import type { AloneContext } from "./lib/run-benchmark-alone.ts";
import { checkSearchTargets, measureSearch, SEARCH_PLANS } from "./lib/search-benchmark.ts";
import { measureStartupSplit } from "./lib/startup-split.ts";
import { measureStepTrace } from "./lib/step-trace.ts";
import { checkSuiteTargets, measureSuiteAgainstStepBatch } from "./lib/suite-benchmark.ts";
import { checkUiApiTargets, measureUiApi } from "./lib/ui-api-benchmarks.ts";
import {
  type Backend,
  BENCH_POLL_MS,
  type BenchStore,
  LEASE_LIFETIME_MS,
  measureTakeover,
  measureWorkerScaling,
  type TakeoverRun,
  type WorkerBenchOptions,
} from "./lib/worker-benchmarks.ts";

const { values: flags } = parseArgs({
  options: { smoke: { type: "boolean", default: false }, keep: { type: "boolean", default: false } },
});
const smoke = flags.smoke === true;

/** Sizes and repetitions. The smoke run exercises every benchmark once, at sizes CI runs in well under a minute. */
const plan = smoke
  ? {
      stepSizes: [1, 10, 30],
      readSteps: 200,
      largeThreads: 500,
      orphanRuns: 50,
      floorRuns: 5,
      startupRuns: 3,
      stepRuns: 2,
      commandRuns: 2,
      listAllRuns: 1,
      readRuns: 1,
      phaseRuns: 1,
      warmup: 1,
      throughput: { writeSteps: 300, durableSteps: 10, fileSystemFiles: 1000, batchSize: 4096 },
      forks: { pairSteps: 100, pairCommonSteps: 49, familyForks: 100, forkCount: 100, runs: 2 },
      // Issue 20: workers over a queue of short threads; the takeover from another host waits out a
      // 60 s lease, so only the full run has it.
      workers: { threads: 30, counts: [1, 2, 4], concurrency: [4], otherHost: false },
      // Issue 29: scoring stored threads of 10 steps with three JSONata assertions.
      evaluation: { threads: 100, steps: 10, runs: 2, warmup: 1 },
      // Issue 29: 100 scripted runs of a suite against the same threads stepped by `step - --all`.
      suiteRuns: 1,
      // Issue 47: `uwf explore` of a 20-step thread × 5 samples against the same 100 forks stepped by `step - --all`.
      explore: SMOKE_EXPLORE_PLAN,
      // Issue 30: requests to `uwf ui` over the large store.
      uiApiRuns: 5,
      // Issue 30: steps by separate `uwf step` processes, timed to the live feed.
      liveSteps: 5,
      // Issue 31: rounds of the branch benchmarks (the fan-out's have three times as many).
      branchRuns: 1,
      // Issue 32: a worker's round of due work over 100 suspended threads and 10 schedules, and `uwf tick`.
      dueWork: SMOKE_DUE_WORK_PLAN,
      // Issues 33 and 34: replay of 20 threads, export of 20 steps, a step with live OTLP export, uwf mcp.
      replayOtelMcp: SMOKE_REPLAY_OTEL_MCP_PLAN,
    }
  : {
      stepSizes: [1, 100, 1000],
      readSteps: 10_000,
      // 100,000 threads of one or two steps: about 1,000,000 nodes, also the store verify and gc run on.
      largeThreads: 100_000,
      orphanRuns: 2000,
      floorRuns: 30,
      startupRuns: 30,
      stepRuns: 21,
      commandRuns: 15,
      listAllRuns: 5,
      readRuns: 7,
      phaseRuns: 7,
      warmup: 2,
      throughput: { writeSteps: 20_000, durableSteps: 300, fileSystemFiles: 20_000, batchSize: 4096 },
      // Issue 17: two 1,000-step threads that part at step 500, a family of 1,000 forks, 100 forks at once.
      forks: { pairSteps: 1000, pairCommonSteps: 499, familyForks: 1000, forkCount: 100, runs: 15 },
      // Issue 20 item 5: 1, 2, 4 and 8 worker processes, and one process of as many threads at once, over 500 threads.
      workers: { threads: 500, counts: [1, 2, 4, 8], concurrency: [2, 4, 8], otherHost: true },
      // Issue 29: scoring 1,000 stored threads of 10 steps with three JSONata assertions (≤ 2 s).
      evaluation: { threads: 1000, steps: 10, runs: 7, warmup: 1 },
      suiteRuns: 5,
      explore: FULL_EXPLORE_PLAN,
      uiApiRuns: 30,
      liveSteps: 30,
      branchRuns: 5,
      // Issue 32: over 1,000 suspended threads and 100 schedules, none due (idle) and 100 + 20 due.
      dueWork: FULL_DUE_WORK_PLAN,
      // Issues 33 and 34: replay of a family of 500 threads of 10 steps, export of a 200-step thread, the cost of
      // live OTLP export on a step (no endpoint, a fast one, a silent one), uwf mcp's start-up and tool calls.
      replayOtelMcp: FULL_REPLAY_OTEL_MCP_PLAN,
    };

const repositoryRoot = resolve(import.meta.dir, "..");
const binary = join(repositoryRoot, "packages/cli/dist/uwf");

/**
 * The command agent of the step benchmark: `/bin/sh` printing a reply for the step it is told
 * (`UWF_STEP`). It reads none of its prompt and starts no other program, so what it costs beyond
 * the scripted agent is uwf's launching of a program (see docs/performance.md).
 */
const COMMAND_AGENT_ALIAS = "sh";
const COMMAND_AGENT = {
  [COMMAND_AGENT_ALIAS]: {
    command: "/bin/sh",
    args: [
      "-c",
      `printf -- '---\\nn: %s\\ndone: false\\nsummary: benchmark step %s\\n---\\n\\nDid step %s of the benchmark thread.\\n' "$UWF_STEP" "$UWF_STEP" "$UWF_STEP"`,
    ],
  },
};

const began = performance.now();
const loadAtStart = loadavg();
const temporaryRoot = mkdtempSync(join(tmpdir(), "uwf-bench-"));
const work = join(temporaryRoot, "work");
mkdirSync(work, { recursive: true });
/** What every benchmark module measures with (see run-benchmark-alone.ts): the built CLI, the temp root, each home's environment. */
const benchmarkContext: AloneContext = { binary, temporaryRoot, environment, progress };
const removeTemporaryRoot = () => {
  if (flags.keep) console.error(`[bench] kept the temp homes in ${temporaryRoot}`);
  else rmSync(temporaryRoot, { recursive: true, force: true });
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    removeTemporaryRoot();
    process.exit(130);
  });
}

try {
  const results = await runSuite();
  const text = formatResults(results);
  console.log(text);
  const resultsDirectory = join(repositoryRoot, "bench/results");
  mkdirSync(resultsDirectory, { recursive: true });
  const file = join(resultsDirectory, smoke ? "smoke.json" : "latest.json");
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.error(`\nwrote ${file} (${results.seconds.toFixed(0)} s)`);
} finally {
  removeTemporaryRoot();
}

async function runSuite(): Promise<BenchResults> {
  // The test server (or UWF_TEST_POSTGRES_URL) starts while the binary builds; without one the suite fails.
  const postgresServer = startTestPostgres();
  buildBinary();
  const processes: ProcessBenchmark[] = [];
  const floorSamples: number[][] = [];
  const emptyHome = join(temporaryRoot, "empty-home");
  const floorOptions = (runs: number, warmup: number): MeasureProcessOptions => ({
    command: [process.execPath, "-e", "0"],
    cwd: work,
    env: environment(emptyHome),
    runs,
    warmup,
  });
  /**
   * Measures a group of benchmarks round-robin together with the floor (`bun -e 0`), so each
   * median is divided by a floor measured in the same minutes: this machine's speed drifts.
   */
  const measureGroup = async (
    entries: { id: string; name: string; store: string; options: MeasureProcessOptions }[],
  ) => {
    const runs = Math.max(...entries.map((entry) => entry.options.runs));
    const warmup = Math.max(...entries.map((entry) => entry.options.warmup));
    const [floor, ...summaries] = await measureInterleaved([
      floorOptions(runs, warmup),
      ...entries.map((entry) => entry.options),
    ]);
    floorSamples.push((floor as Summary).samplesMs);
    for (const [index, entry] of entries.entries()) {
      const summary = summaries[index] as Summary;
      const floorMedianMs = (floor as Summary).medianMs;
      // Not the options: their environment is the harness's own, which the results have no business keeping.
      const { id, name, store } = entry;
      processes.push({
        id,
        name,
        store,
        summary,
        floorMedianMs,
        floorMultiple: round(summary.medianMs / floorMedianMs, 2),
      });
      progress(`${entry.name} [${entry.store}]: median ${summary.medianMs} ms (floor ${floorMedianMs} ms)`);
    }
  };
  const uwf = (home: string, args: string[], runs: number, warmup = plan.warmup): MeasureProcessOptions => ({
    command: [binary, ...args],
    cwd: work,
    env: environment(home),
    runs,
    warmup,
  });

  await measureGroup([
    { id: "version", name: "uwf --version", store: "none", options: uwf(emptyHome, ["--version"], plan.startupRuns) },
    { id: "help", name: "uwf --help", store: "none", options: uwf(emptyHome, ["--help"], plan.startupRuns) },
  ]);

  // Issue 25 item 9: a workflow whose schema has a 100,000-value enum, checked from its file.
  const enumWorkflow = writeEnumWorkflow(work);
  await measureGroup([
    {
      id: "validate-enum",
      name: "uwf workflow validate (100,000-value enum)",
      store: "none",
      options: uwf(emptyHome, ["workflow", "validate", enumWorkflow], plan.readRuns, 0),
    },
  ]);
  const enumValidation = measureEnumValidation(enumWorkflow, plan.commandRuns + 1);
  progress(`checking the 100,000-value enum's workflow in-process: ${enumValidation.validateMs} ms`);

  progress("start-up split: compiling each package on its own");
  const splitDirectory = join(temporaryRoot, "startup-split");
  mkdirSync(splitDirectory, { recursive: true });
  const startup = await measureStartupSplit(splitDirectory, floorOptions(plan.startupRuns, plan.warmup));

  const small = await prepareStore("small", 10 - plan.stepSizes.length - 1, [...plan.stepSizes, plan.readSteps], 0);
  const large = await prepareStore("large", plan.largeThreads - plan.stepSizes.length, plan.stepSizes, plan.orphanRuns);
  const smallLabel = `${small.generated.threads} threads`;
  const largeLabel = `${large.generated.threads.toLocaleString("en-US")} threads`;

  // The same 1-step thread on PostgreSQL: a store of its own generated like the small one, copied there as
  // `uwf store copy` copies, and stepped with UWF_STORE naming it (its config.yaml still read from the home).
  const shortest = plan.stepSizes[0] as number;
  const postgres = await postgresServer;
  const postgresHome = await prepareStore("postgres", small.generated.threads - 1, [shortest], 0);
  const postgresUrl = postgres.newStoreUrl();
  progress("copying the 1-step store into PostgreSQL (copyStore, what uwf store copy runs)");
  await copyIntoPostgres(postgresHome.generated.home, postgresUrl);
  const postgresLabel = `${postgresHome.generated.threads} threads, PostgreSQL`;

  // Every step benchmark in one round-robin, so the small/large, scripted/command and embedded/PostgreSQL
  // comparisons are not skewed by drift either.
  await measureGroup([
    ...[small, large].flatMap((store) =>
      plan.stepSizes.map((steps) => ({
        id: `step-${store.name}-${steps}`,
        name: `uwf step (${steps.toLocaleString("en-US")}-step thread)`,
        store: store.name === "small" ? smallLabel : largeLabel,
        options: stepOptions(store.generated, findChain(store.generated, steps), "scripted"),
      })),
    ),
    {
      id: `step-small-${shortest}-command`,
      name: `uwf step (${shortest}-step thread, /bin/sh command agent)`,
      store: smallLabel,
      options: stepOptions(small.generated, findChain(small.generated, shortest), "command"),
    },
    {
      id: `step-postgres-${shortest}`,
      name: `uwf step (${shortest}-step thread)`,
      store: postgresLabel,
      options: stepOptions(
        postgresHome.generated,
        findChain(postgresHome.generated, shortest),
        "scripted",
        postgresUrl,
      ),
    },
  ]);

  progress("step phases (UWF_TRACE)");
  const stepPhases: BenchResults["stepPhases"] = [];
  for (const steps of plan.stepSizes) {
    const options = stepOptions(small.generated, findChain(small.generated, steps), "scripted");
    stepPhases.push({ steps, agent: "scripted", trace: await measureStepTrace({ ...options, runs: plan.phaseRuns }) });
  }
  const commandStep = stepOptions(small.generated, findChain(small.generated, shortest), "command");
  stepPhases.push({
    steps: shortest,
    agent: "command",
    trace: await measureStepTrace({ ...commandStep, runs: plan.phaseRuns }),
  });
  const postgresStep = stepOptions(
    postgresHome.generated,
    findChain(postgresHome.generated, shortest),
    "scripted",
    postgresUrl,
  );
  stepPhases.push({
    steps: shortest,
    agent: "scripted",
    store: "postgres",
    trace: await measureStepTrace({ ...postgresStep, runs: plan.phaseRuns }),
  });

  const largeHome = large.generated.home;
  const middle = findChain(large.generated, plan.stepSizes[1] as number);
  const middleThread = middle.threadIds[0] as string;
  const commands = (id: string, name: string, args: string[]) => ({
    id,
    name,
    store: largeLabel,
    options: uwf(largeHome, args, plan.commandRuns),
  });
  await measureGroup([
    commands("start", "uwf start loop -p …", ["start", "loop", "-p", "Benchmark task"]),
    commands("fork", `uwf fork HEAD (${middle.steps}-step chain)`, ["fork", middle.head]),
    commands("show-thread", "uwf show THREAD", ["show", middleThread]),
    commands("show-node", "uwf show STEP-ADDRESS", ["show", middle.head]),
    commands("list-limit", "uwf list --limit 50", ["list", "--limit", "50"]),
  ]);
  await measureGroup([
    {
      id: "list-all",
      name: "uwf list --json (all)",
      store: largeLabel,
      options: uwf(largeHome, ["list", "--limit", "0", "--json"], plan.listAllRuns, 1),
    },
  ]);

  const longest = findChain(large.generated, plan.stepSizes.at(-1) as number);
  progress(`uwf ui's API over the ${largeLabel} store (issue 30)`);
  const uiApi = await measureUiApi({
    binary,
    cwd: work,
    env: environment(largeHome),
    threads: large.generated.threads,
    thread: { id: longest.threadIds[0] as string, steps: longest.steps },
    plan: { runs: plan.uiApiRuns, warmup: 3 },
  });
  progress(`ui API: list page ${uiApi.listPage.medianMs} ms, thread page ${uiApi.threadPage.medianMs} ms (medians)`);
  progress("thread search over the ref store (issue 46)");
  const searchFolder = join(temporaryRoot, "search");
  mkdirSync(searchFolder, { recursive: true });
  const search = await measureSearch({
    folder: searchFolder,
    plan: smoke ? SEARCH_PLANS.smoke : SEARCH_PLANS.full,
    progress,
  });
  progress(
    `ui API: list page ${uiApi.listPage.medianMs} ms, thread page ${uiApi.threadPage.medianMs} ms (medians); first paint ${uiApi.firstPaint?.medianMs ?? "–"} ms; page ${(uiApi.pageWeightGzipBytes / 1024).toFixed(1)} KB gzipped`,
  );

  const readThread = findChain(small.generated, plan.readSteps).threadIds[0] as string;
  const readLabel = `${plan.readSteps.toLocaleString("en-US")}-step thread`;
  await measureGroup([
    {
      id: "read",
      name: "uwf read THREAD",
      store: readLabel,
      options: uwf(small.generated.home, ["read", readThread], plan.readRuns, 1),
    },
    {
      id: "log",
      name: "uwf log THREAD",
      store: readLabel,
      options: uwf(small.generated.home, ["log", readThread], plan.readRuns, 1),
    },
  ]);

  progress("generating the fork store (a diverging pair, a family of forks, a thread to fork)");
  const forkStore = await prepareForkStore(temporaryRoot, plan.forks, work);
  progress(`fork store: ${forkStore.threads} threads, ${forkStore.nodes} nodes in ${forkStore.seconds.toFixed(1)} s`);
  const forkEntries = forkBenchmarks(forkStore, plan.forks, uwf);
  await measureGroup(forkEntries);

  progress(
    `generating ${plan.evaluation.threads} threads of ${plan.evaluation.steps} steps and scoring them (issue 29)`,
  );
  const evaluation = await measureEvalScoring(binary, temporaryRoot, plan.evaluation, environment, work);
  progress(
    `scoring ${evaluation.threads} threads: median ${evaluation.process.medianMs} ms as a process (floor ${evaluation.floorMedianMs} ms)`,
  );

  const workers = await measureWorkers(postgres.newStoreUrl);

  progress("a suite of 100 scripted runs (runSuite) against `uwf step - --all --parallel 4` of the same threads");
  const suite = await measureSuiteAgainstStepBatch({ ...benchmarkContext, runs: plan.suiteRuns });

  progress("explore of a 20-step thread × 5 samples against `uwf step - --all --parallel 4` of the same 100 forks");
  const explore = await measureExploreAgainstStepBatch({ ...benchmarkContext, plan: plan.explore });

  progress(
    "branches: a 100-branch fan-out, 100 branches joined against 100 forks stepped, the join's reads (issue 31)",
  );
  const branches = await measureBranches({ ...benchmarkContext, runs: plan.branchRuns });

  progress(
    `due work: a worker's round over ${plan.dueWork.suspended} suspended threads and ${plan.dueWork.schedules} schedules, idle and due; uwf tick (issue 32)`,
  );
  const dueWork = await measureDueWork({ ...benchmarkContext, plan: plan.dueWork });

  progress(`uwf step side by side with the ${BASELINE_COMMIT} build (issue 43)`);
  const baselineSteps = await measureBaselineSteps({
    ...benchmarkContext,
    plan: smoke ? BASELINE_PLANS.smoke : BASELINE_PLANS.full,
  });

  progress(
    "list, diff, tick, a 100,000-value enum's validate, node writes and the idle pass against their targets (issue 43)",
  );
  const hotCommands = await measureHotCommands({
    ...benchmarkContext,
    plan: smoke ? HOT_COMMAND_PLANS.smoke : HOT_COMMAND_PLANS.full,
  });

  progress(
    "replay of a family, scenario export, live OTLP export on a step, uwf mcp's start-up and calls (issues 33, 34)",
  );
  const replayOtelMcp = await measureReplayOtelMcp({ ...benchmarkContext, plan: plan.replayOtelMcp });

  progress("in-process throughput");
  const throughput = await measureThroughput(temporaryRoot, plan.throughput);
  progress(
    `in-process: ${throughput.writeBatch.perSecond} nodes/s written, ${throughput.read.perSecond} read; verify and gc`,
  );
  const wholeStore = { ...(await measureWholeStore(largeHome)), store: largeLabel, nodes: large.generated.nodes };
  progress(`verify ${wholeStore.verify.ms} ms, gc ${wholeStore.gc.ms} ms`);

  // Issue 30: after verify and gc, so the steps it adds (and resets) change nothing they measure.
  progress("the live feed: steps by separate uwf step processes, timed to the feed (issue 30)");
  const live: LiveLatencyRun[] = [];
  for (const [backend, prepared, url, label] of [
    ["embedded", large, undefined, `embedded, ${largeLabel}`],
    ["postgres", postgresHome, postgresUrl, postgresLabel],
  ] as const) {
    const run = await measureLiveLatency({
      backend,
      store: label,
      binary,
      work,
      env:
        url === undefined
          ? environment(prepared.generated.home)
          : { ...environment(prepared.generated.home), UWF_STORE: url },
      open: () => (url === undefined ? openFileStore(prepared.generated.home) : openPostgresStore(url)),
      threadId: findChain(prepared.generated, shortest).threadIds[0] as string,
      agent: COMMAND_AGENT_ALIAS,
      steps: plan.liveSteps,
    });
    live.push(run);
    progress(`live feed [${label}]: median ${run.recordToEvent.medianMs} ms (max ${run.recordToEvent.maxMs} ms)`);
  }

  const floor = summarize(floorSamples.flat());
  const groupMedians = floorSamples.map((samples) => summarize(samples).medianMs);
  return {
    mode: smoke ? "smoke" : "full",
    date: new Date().toISOString(),
    commit: gitCommit(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? "unknown",
      memoryGb: round(totalmem() / 2 ** 30, 1),
      os: `${type()} ${release()}`,
      bun: Bun.version,
      loadAverage: { start: loadAtStart.map((value) => round(value)), end: loadavg().map((value) => round(value)) },
    },
    binary: "packages/cli/dist/uwf",
    floor: {
      command: "bun -e 0",
      summary: floor,
      lowestGroupMedianMs: Math.min(...groupMedians),
      highestGroupMedianMs: Math.max(...groupMedians),
    },
    stores: [
      ...[small, large].map(({ name, generated }) => ({
        name: name === "small" ? `small (${smallLabel})` : `large (${largeLabel})`,
        threads: generated.threads,
        nodes: generated.nodes,
        generateSeconds: round(generated.seconds),
        nodesPerSecond: round(generated.nodes / generated.seconds, 0),
      })),
      {
        name: `forks (${forkStore.threads.toLocaleString("en-US")} threads)`,
        threads: forkStore.threads,
        nodes: forkStore.nodes,
        generateSeconds: round(forkStore.seconds),
        nodesPerSecond: round(forkStore.nodes / forkStore.seconds, 0),
      },
      {
        name: `eval (${evaluation.threads.toLocaleString("en-US")} ended threads of ${evaluation.steps} steps)`,
        threads: evaluation.threads,
        nodes: evaluation.nodes,
        generateSeconds: evaluation.generateSeconds,
        nodesPerSecond: round(evaluation.nodes / evaluation.generateSeconds, 0),
      },
    ],
    processes,
    startup,
    stepPhases,
    throughput,
    wholeStore,
    workers,
    enumValidation,
    evalScoring: evaluation,
    suite,
    explore,
    branches,
    dueWork,
    baselineSteps,
    hotCommands,
    replayOtelMcp,
    uiApi,
    live,
    search,
    targets: [
      ...checkTargets(processes, throughput, plan.stepSizes, plan.readSteps, enumValidation),
      ...checkForkTargets(forkEntries, processes),
      ...checkWorkerTargets(workers),
      ...checkEvalTargets(evaluation),
      ...checkSuiteTargets(suite),
      ...checkExploreTargets(explore),
      ...checkBranchTargets(branches),
      ...checkDueWorkTargets(dueWork),
      ...baselineSteps.targets,
      ...hotCommands.targets,
      ...checkReplayOtelMcpTargets(replayOtelMcp),
      ...checkUiApiTargets(uiApi),
      ...checkLiveTargets(live),
      ...checkSearchTargets(search),
    ],
    seconds: round((performance.now() - began) / 1000, 1),
  };
}

/**
 * Issue 20 item 5: steps per second of worker processes over a fresh queue on each backend, then the takeover of
 * a killed worker's thread (SIGKILL and SIGTERM on this host on both backends; SIGKILL from another host,
 * which waits out the lease, on the embedded store in the full run).
 */
async function measureWorkers(newStoreUrl: () => string): Promise<BenchResults["workers"]> {
  let stores = 0;
  const options: WorkerBenchOptions = {
    binary,
    work,
    environment,
    newStore: (backend: Backend, name: string): BenchStore => {
      const home = join(temporaryRoot, `workers-${++stores}-${name}`);
      return backend === "postgres" ? { backend, home, url: newStoreUrl() } : { backend, home };
    },
    progress,
  };
  const backends: Backend[] = ["embedded", "postgres"];
  const throughput = await measureWorkerScaling(options, {
    backends,
    workers: plan.workers.counts,
    concurrency: plan.workers.concurrency,
    threads: plan.workers.threads,
  });
  const takeover: TakeoverRun[] = [];
  for (const backend of backends) {
    for (const signal of ["SIGKILL", "SIGTERM"] as const) {
      takeover.push(await measureTakeover(options, { backend, signal, otherHost: false }));
    }
  }
  if (plan.workers.otherHost) {
    takeover.push(await measureTakeover(options, { backend: "embedded", signal: "SIGKILL", otherHost: true }));
  }
  return {
    cpus: cpus().length,
    threads: plan.workers.threads,
    pollMs: BENCH_POLL_MS,
    leaseLifetimeMs: LEASE_LIFETIME_MS,
    throughput,
    takeover,
  };
}

async function copyIntoPostgres(home: string, url: string): Promise<void> {
  const [source, target] = [await openFileStore(home), await openPostgresStore(url)];
  try {
    const report = await copyStore(source, target);
    if (report.problems.length > 0)
      throw new Error(`copying ${home} into PostgreSQL: ${JSON.stringify(report.problems)}`);
  } finally {
    await Promise.all([source.close(), target.close()]);
  }
}

/** Always builds: a binary left from older sources would time code that is no longer there. */
function buildBinary(): void {
  progress("building packages/cli/dist/uwf (bun run build)");
  const build = Bun.spawnSync([process.execPath, "run", "build"], {
    cwd: repositoryRoot,
    stdout: "inherit",
    stderr: "inherit",
  });
  if (build.exitCode !== 0 || !existsSync(binary)) throw new Error("bun run build failed");
}

interface PreparedStore {
  name: "small" | "large" | "postgres";
  generated: GeneratedStore;
}

async function prepareStore(
  name: "small" | "large" | "postgres",
  fillerThreads: number,
  chainSteps: number[],
  orphanRuns: number,
): Promise<PreparedStore> {
  progress(`generating the ${name} store (${fillerThreads} filler threads, chains of ${chainSteps.join(", ")} steps)`);
  const generated = await generateStore({
    home: join(temporaryRoot, `${name}-home`),
    fillerThreads,
    chains: chainSteps.map((steps) => ({ steps })),
    orphanRuns,
    cwd: work,
    onProgress: progress,
  });
  // Both stores define the command agent, so a step reads the same config.yaml whichever agent plays it.
  writeFileSync(join(generated.home, "config.yaml"), `${JSON.stringify({ agents: COMMAND_AGENT })}\n`);
  // Flush the generator's writes now, so the timed runs do not pay for their write-back.
  Bun.spawnSync(["sync"]);
  progress(
    `${name} store: ${generated.threads} threads, ${generated.nodes} nodes in ${generated.seconds.toFixed(1)} s`,
  );
  return { name, generated };
}

function findChain(store: GeneratedStore, steps: number): GeneratedChain {
  const chain = store.chains.find((candidate) => candidate.steps === steps);
  if (chain === undefined) throw new Error(`no ${steps}-step chain in ${store.home}`);
  return chain;
}

/**
 * One `uwf step` on a thread of `chain.steps` steps, played by the scripted agent or the command
 * agent; with `postgresUrl`, on that PostgreSQL store (a copy of the home's) instead of the home's own. After each run (outside the timing) the thread is checked to have advanced and is reset to
 * the prepared head and chain index, so every run steps the same, never-ended thread and the store
 * keeps its thread count.
 */
function stepOptions(
  store: GeneratedStore,
  chain: GeneratedChain,
  agent: "scripted" | "command",
  postgresUrl?: string,
): MeasureProcessOptions {
  const threadId = chain.threadIds[0] as string;
  const alias = agent === "command" ? COMMAND_AGENT_ALIAS : `scripted:${writeScenario(chain.steps)}`;
  return {
    command: [binary, "step", threadId, "--agent", alias],
    cwd: work,
    env: postgresUrl === undefined ? environment(store.home) : { ...environment(store.home), UWF_STORE: postgresUrl },
    runs: plan.stepRuns,
    warmup: plan.warmup,
    after: async () => {
      const opened: Store =
        postgresUrl === undefined ? await openFileStore(store.home) : await openPostgresStore(postgresUrl);
      try {
        const thread = await opened.refs.getThread(threadId);
        if (thread === null || thread.stepCount !== chain.steps + 1 || thread.head === chain.head) {
          throw new Error(`uwf step did not advance thread ${threadId}: ${JSON.stringify(thread)}`);
        }
        const reset = {
          head: chain.head,
          stepCount: chain.steps,
          status: "active",
          next: "worker",
          updatedAt: new Date().toISOString(),
        } as const;
        if (!(await opened.refs.updateThread(threadId, thread.head, reset)))
          throw new Error(`could not reset ${threadId}`);
        const index = await opened.refs.recallChainIndex(threadId, { details: true });
        if (index?.steps.at(-1)?.address !== thread.head) throw new Error(`uwf step did not index ${threadId}`);
        await opened.refs.rememberChainIndex(threadId, { ...index, steps: index.steps.slice(0, -1) });
      } finally {
        await opened.close();
      }
    },
  };
}

/**
 * The scripted agent plays entry N for a thread of N steps: N placeholder entries, then the real reply.
 * JSON, so the benchmark times the engine rather than the test agent's YAML parse of a long scenario.
 */
function writeScenario(steps: number): string {
  const file = join(temporaryRoot, `scenario-${steps}.json`);
  const placeholders = Array.from({ length: steps }, () => ({ role: "worker" }));
  const reply = {
    role: "worker",
    output: { n: steps + 1, done: false, summary: `benchmark step ${steps + 1}` },
    body: `Did step ${steps + 1} of the benchmark thread.`,
  };
  writeFileSync(file, JSON.stringify({ steps: [...placeholders, reply] }));
  return file;
}

function environment(home: string): Record<string, string | undefined> {
  const { UWF_STORE: _store, UWF_HOME: _home, ...rest } = process.env;
  return { ...rest, UWF_HOME: home, HOME: temporaryRoot, NO_COLOR: "1" };
}

function gitCommit(): string | null {
  const run = runProcess(["git", "rev-parse", "HEAD"], repositoryRoot, process.env);
  return run.exitCode === 0 ? run.stdout.trim() : null;
}

function progress(message: string): void {
  console.error(`[bench] ${message}`);
}
