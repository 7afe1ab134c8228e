/**
 * The benchmarks of issues 33 and 34's commands, on one fresh home built in-process through the engine
 * (threads of bench/fixtures/loop.yaml started by startThreads, stepped by stepThread with the scripted
 * agent, forked by forkThreads):
 * 1. `uwf replay --forks-of T --workflow FILE` over a family of threads of 10 steps (an original that ended
 *    at its 10th step, and forks of it made at its steps 5–9, each stepped to its own end at step 10), and
 *    `uwf replay T` of the original alone: the per-thread cost is their difference over the other threads;
 * 2. `uwf scenario export` of a long thread (200 steps in the full run), to a JSON file and as YAML on stdout;
 * 3. `uwf step` of a 1-step thread without `OTEL_EXPORTER_OTLP_ENDPOINT`, with it naming a receiver in this
 *    process that answers 200 at once, and with it naming one that accepts the connection and never answers
 *    (the exit's flush then waits out its 2 s deadline), timed round-robin with the floor;
 * 4. `uwf mcp`: spawning it to the `initialize` answer (the SDK client's `connect`), then `list` and `show`
 *    tool calls over stdio, against `uwf list` and `uwf show` as processes.
 * Every process is timed against the floor (`bun -e 0`) measured round-robin with it.
 * Run alone with `bun bench/lib/replay-otel-mcp-benchmarks.ts [--smoke]` (builds the binary if missing).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { openFileStore } from "../../packages/cas/src/index.ts";
import { Client, StdioClientTransport } from "../../packages/cli/test/helpers/mcp-sdk-client.ts";
import {
  forkThreads,
  readChain,
  registerWorkflowFile,
  startThreads,
  stepThread,
} from "../../packages/engine/src/index.ts";
import { defaultConfig, type ThreadRecord } from "../../packages/protocol/src/index.ts";
import {
  type MeasureProcessOptions,
  measureInterleaved,
  type ProcessRun,
  round,
  runProcess,
  type Summary,
  summarize,
} from "./measure.ts";
import type { TargetCheck } from "./report.ts";
import { type AloneOptions, runBenchmarkAlone, targetLines } from "./run-benchmark-alone.ts";
import { scriptedStepOptions } from "./scripted-step-options.ts";
import { ulidAt } from "./ulid.ts";

const repositoryRoot = resolve(import.meta.dir, "../..");
const LOOP_WORKFLOW_FILE = join(repositoryRoot, "bench/fixtures/loop.yaml");
const LOOP_WORKFLOW_NAME = "loop";
/** Steps of every thread of the replayed family; the forks are made at steps FORK_FROM… of the original. */
const FAMILY_STEPS = 10;
const FORK_POINTS = [5, 6, 7, 8, 9];
/** Threads stepped at once while the store is built (not measured). */
const BUILD_LANES = 4;

/** Targets. */
export const REPLAY_TARGET = { threads: 500, ms: 2000 };
export const EXPORT_TARGET_MS = 1000;
export const OTEL_FAST_ADDED_TARGET_MS = 50;
/** The documented exit deadline of the live export's flush (docs/observability.md "Delivery"). */
export const OTEL_EXIT_DEADLINE_MS = 2000;
/** What the process may take beyond the deadline to exit once it gives up (its timer fires, it tears down). */
const OTEL_EXIT_SLACK_MS = 100;
export const MCP_CALL_TARGET_MS = 50;
export const MCP_START_FLOOR_MULTIPLE = 5;
/** Issue 6's bound on a 1-step `uwf step`, which the step without the variable must still meet. */
const STEP_FLOOR_MULTIPLE = 5;

export interface ReplayOtelMcpPlan {
  /** Forks of the original in the replayed family (the family is one more). */
  familyForks: number;
  /** Steps of the exported thread. */
  exportSteps: number;
  /** Runs of the replay, export and CLI reference processes (and the floor with them). */
  processRuns: number;
  /** Runs of `uwf step` without and with the fast collector; with the silent one (2 s each). */
  otelRuns: number;
  otelSilentRuns: number;
  /** `uwf mcp` sessions started, and calls of each tool in each. */
  mcpSessions: number;
  mcpCalls: number;
  warmup: number;
}

interface Timed {
  summary: Summary;
  floorMultiple: number;
}

export interface ReplayOtelMcpResult {
  build: { seconds: number; threads: number; steps: number };
  replay: {
    threads: number;
    stepsEach: number;
    family: Timed;
    single: Timed;
    /** `uwf replay T --workflow loop`: the registered workflow, not the file. */
    singleByName: Timed;
    /** (family − single) / (threads − 1), from the medians. */
    perThreadMs: number;
    /** `family` scaled to REPLAY_TARGET.threads at the per-thread cost (equal to it when the family is that size). */
    projectedTargetMs: number;
    floor: Summary;
  };
  export: { steps: number; json: Timed; yaml: Timed; bytes: { json: number; yaml: number }; floor: Summary };
  reference: { list: Timed; show: Timed };
  otel: {
    none: Timed;
    fast: Timed;
    silent: Timed;
    floor: Summary;
    /** Medians' differences: fast − none, silent − none, silent − fast. */
    fastAddedMs: number;
    silentAddedMs: number;
    silentWaitMs: number;
    /** Requests the fast receiver took over the timed and warm-up runs. */
    requests: number;
  };
  mcp: {
    /** Spawn to the `initialize` answer. */
    start: Timed;
    list: Summary;
    show: Summary;
    /** The `bun -e 0` runs taken one before each session. */
    floor: Summary;
  };
  loadAverage: { start: number[]; end: number[] };
}

interface BenchHome {
  home: string;
  work: string;
  original: string;
  family: number;
  longThread: string;
  /** A 1-step thread, stepped once more by each `uwf step` run and reset after it. */
  stepThread: { id: string; head: string; steps: number };
  familyScenario: string;
  buildSeconds: number;
  totalSteps: number;
}

export async function measureReplayOtelMcp(options: AloneOptions<ReplayOtelMcpPlan>): Promise<ReplayOtelMcpResult> {
  const { plan, progress } = options;
  const root = mkdtempSync(join(options.temporaryRoot, "replay-otel-mcp-bench-"));
  try {
    progress(
      `replay/export/otel/mcp: building a family of ${plan.familyForks + 1} threads of ${FAMILY_STEPS} steps and a ${plan.exportSteps}-step thread`,
    );
    const built = await buildHome(join(root, "home"), plan);
    progress(`replay/export/otel/mcp: ${built.totalSteps} steps in ${built.buildSeconds.toFixed(1)} s`);
    Bun.spawnSync(["sync"]);
    const environment = (): Record<string, string | undefined> => {
      const {
        OTEL_EXPORTER_OTLP_ENDPOINT: _endpoint,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: _traces,
        OTEL_SDK_DISABLED: _disabled,
        ...rest
      } = options.environment(built.home);
      return rest;
    };
    const loadAtStart = loadavg();
    const processOptions = (command: string[], runs: number, expectExitCode = 0): MeasureProcessOptions => ({
      command,
      cwd: built.work,
      env: environment(),
      runs,
      warmup: plan.warmup,
      expectExitCode,
    });
    const floorCommand = [process.execPath, "-e", "0"];
    const uwf = (...args: string[]) => [options.binary, ...args];

    // 1 and 2, with the CLI reference of the MCP calls: one round-robin with the floor.
    checkReplay(options.binary, built, environment());
    const exported = join(built.work, "long.scenario.json");
    const [floor, family, single, byName, json, yaml, list, show] = (await measureInterleaved([
      processOptions(floorCommand, plan.processRuns),
      processOptions(uwf("replay", "--forks-of", built.original, "--workflow", LOOP_WORKFLOW_FILE), plan.processRuns),
      processOptions(uwf("replay", built.original, "--workflow", LOOP_WORKFLOW_FILE), plan.processRuns),
      // The same through the registered workflow: no file to read and check.
      processOptions(uwf("replay", built.original, "--workflow", LOOP_WORKFLOW_NAME), plan.processRuns),
      processOptions(uwf("scenario", "export", built.longThread, "-o", exported), plan.processRuns),
      processOptions(uwf("scenario", "export", built.longThread), plan.processRuns),
      processOptions(uwf("list"), plan.processRuns),
      processOptions(uwf("show", built.original), plan.processRuns),
    ])) as [Summary, Summary, Summary, Summary, Summary, Summary, Summary, Summary];
    const timed = (summary: Summary): Timed => ({
      summary,
      floorMultiple: round(summary.medianMs / floor.medianMs, 2),
    });
    const exportedSteps = (JSON.parse(readFileSync(exported, "utf8")) as { steps: unknown[] }).steps.length;
    if (exportedSteps !== plan.exportSteps) throw new Error(`the export has ${exportedSteps} steps`);
    const yamlBytes = runProcess(uwf("scenario", "export", built.longThread), built.work, environment()).stdout.length;
    const perThreadMs = round(built.family > 1 ? (family.medianMs - single.medianMs) / (built.family - 1) : 0, 3);
    const replay = {
      threads: built.family,
      stepsEach: FAMILY_STEPS,
      family: timed(family),
      single: timed(single),
      singleByName: timed(byName),
      perThreadMs,
      projectedTargetMs: round(family.medianMs + (REPLAY_TARGET.threads - built.family) * perThreadMs, 1),
      floor,
    };
    progress(
      `replay of ${built.family} threads: median ${family.medianMs} ms (one thread ${single.medianMs} ms; ${perThreadMs} ms a thread; floor ${floor.medianMs} ms)`,
    );
    progress(
      `scenario export of ${plan.exportSteps} steps: JSON file ${json.medianMs} ms, YAML on stdout ${yaml.medianMs} ms`,
    );

    // 3. The live export's cost on `uwf step`.
    const otel = await measureOtel(options, built, environment, floorCommand);
    progress(
      `uwf step: no endpoint ${otel.none.summary.medianMs} ms, fast collector ${otel.fast.summary.medianMs} ms (+${otel.fastAddedMs}), silent collector ${otel.silent.summary.medianMs} ms (+${otel.silentAddedMs}); floor ${otel.floor.medianMs} ms`,
    );

    // 4. `uwf mcp` over stdio.
    const mcp = await measureMcp(options, built, environment(), floorCommand);
    progress(
      `uwf mcp: initialize answered in ${mcp.start.summary.medianMs} ms (${mcp.start.floorMultiple}× the floor); list ${mcp.list.medianMs} ms, show ${mcp.show.medianMs} ms a call`,
    );
    return {
      build: { seconds: round(built.buildSeconds, 1), threads: built.family + 2, steps: built.totalSteps },
      replay,
      export: {
        steps: plan.exportSteps,
        json: timed(json),
        yaml: timed(yaml),
        bytes: { json: readFileSync(exported).length, yaml: yamlBytes },
        floor,
      },
      reference: { list: timed(list), show: timed(show) },
      otel,
      mcp,
      loadAverage: { start: loadAtStart.map((value) => round(value)), end: loadavg().map((value) => round(value)) },
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The scripted agent's entry N is step N's reply; the thread ends at step `doneAt`. */
function writeLoopScenario(file: string, steps: number, doneAt: number): string {
  const entries = Array.from({ length: steps }, (_, index) => ({
    role: "worker",
    output: { n: index + 1, done: index + 1 === doneAt, summary: `benchmark step ${index + 1}` },
    body: `Did step ${index + 1} of the benchmark thread.`,
  }));
  writeFileSync(file, JSON.stringify({ steps: entries }));
  return file;
}

async function buildHome(home: string, plan: ReplayOtelMcpPlan): Promise<BenchHome> {
  const began = performance.now();
  const work = join(home, "work");
  mkdirSync(work, { recursive: true });
  const familyScenario = writeLoopScenario(join(home, "family.scenario.json"), FAMILY_STEPS, FAMILY_STEPS);
  const longScenario = writeLoopScenario(join(home, "long.scenario.json"), plan.exportSteps, plan.exportSteps);
  const store = await openFileStore(home);
  const config = defaultConfig();
  const now = () => new Date();
  const newId = () => ulidAt(Date.now());
  let totalSteps = 0;
  const step = async (id: string, agent: string): Promise<ThreadRecord> => {
    const outcome = await stepThread(scriptedStepOptions(store, config, home, id, agent));
    totalSteps++;
    return outcome.record;
  };
  const untilEnded = async (id: string, agent: string): Promise<ThreadRecord> => {
    for (;;) {
      const record = await step(id, agent);
      if (record.status !== "active") return record;
    }
  };
  try {
    const { workflow } = await registerWorkflowFile({ store, file: LOOP_WORKFLOW_FILE, now });
    const [original, long, stepped] = (await startThreads({
      store,
      config,
      workflowReference: workflow.name,
      starts: ["Replayed family", "Exported thread", "Stepped thread"].map((prompt) => ({ prompt })),
      // The default budget stops a thread at 100 steps; the exported one has more.
      limits: { maxSteps: plan.exportSteps + FAMILY_STEPS },
      cwd: work,
      home,
      now,
      newId,
    })) as [ThreadRecord, ThreadRecord, ThreadRecord];
    const ended = await untilEnded(original.id, familyScenario);
    if (ended.status !== "ended" || ended.stepCount !== FAMILY_STEPS)
      throw new Error(`original: ${JSON.stringify(ended)}`);
    const chain = await readChain(store, ended.head);

    // The forks, in equal shares at each fork point, then each stepped to its end.
    const forks: string[] = [];
    for (const [index, point] of FORK_POINTS.entries()) {
      const count =
        Math.floor(plan.familyForks / FORK_POINTS.length) + (index < plan.familyForks % FORK_POINTS.length ? 1 : 0);
      if (count === 0) continue;
      const address = chain.steps[point - 1]?.address;
      if (address === undefined) throw new Error(`no step ${point}`);
      const made = await forkThreads({ store, address, forks: Array(count).fill(null), now, newId });
      forks.push(...made.map((record) => record.id));
    }
    const jobs = [...forks];
    const lane = async () => {
      for (let id = jobs.shift(); id !== undefined; id = jobs.shift()) {
        const record = await untilEnded(id, familyScenario);
        if (record.status !== "ended" || record.stepCount !== FAMILY_STEPS)
          throw new Error(`fork ${id}: ${record.status} at ${record.stepCount}`);
      }
    };
    await Promise.all(Array.from({ length: BUILD_LANES }, lane));

    for (let index = 0; index < plan.exportSteps; index++) await step(long.id, longScenario);
    const afterOne = await step(stepped.id, familyScenario);
    return {
      home,
      work,
      original: original.id,
      family: forks.length + 1,
      longThread: long.id,
      stepThread: { id: stepped.id, head: afterOne.head, steps: afterOne.stepCount },
      familyScenario,
      buildSeconds: (performance.now() - began) / 1000,
      totalSteps,
    };
  } finally {
    await store.close();
  }
}

/** Once, untimed: the family replays identically through the workflow it ran, every thread of it. */
function checkReplay(binary: string, built: BenchHome, env: Record<string, string | undefined>): void {
  const run = runProcess(
    [binary, "replay", "--forks-of", built.original, "--workflow", LOOP_WORKFLOW_FILE, "--json"],
    built.work,
    env,
  );
  const result = JSON.parse(run.stdout || "{}") as { identical?: number; diverged?: number };
  if (run.exitCode !== 0 || result.identical !== built.family || result.diverged !== 0)
    throw new Error(`uwf replay of the family: exit ${run.exitCode}, ${run.stdout.slice(0, 500)}${run.stderr}`);
}

/** A run timed from just before the spawn to its exit, without blocking this process's event loop. */
async function runProcessAsync(
  command: string[],
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<ProcessRun> {
  const began = Bun.nanoseconds();
  const child = Bun.spawn(command, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { exitCode, stdout, stderr, ms: (Bun.nanoseconds() - began) / 1e6 };
}

async function measureOtel(
  options: AloneOptions<ReplayOtelMcpPlan>,
  built: BenchHome,
  environment: () => Record<string, string | undefined>,
  floorCommand: string[],
): Promise<ReplayOtelMcpResult["otel"]> {
  const { plan } = options;
  let requests = 0;
  const fast = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      await request.arrayBuffer();
      requests++;
      return new Response(null, { status: 200 });
    },
  });
  // Accepts connections and reads what comes, never a byte back.
  const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { id, head, steps } = built.stepThread;
  const reset = async () => {
    const store = await openFileStore(built.home);
    try {
      const thread = await store.refs.getThread(id);
      if (thread === null || thread.stepCount !== steps + 1 || thread.head === head)
        throw new Error(`uwf step did not advance thread ${id}: ${JSON.stringify(thread)}`);
      const back = {
        head,
        stepCount: steps,
        status: "active",
        next: "worker",
        updatedAt: new Date().toISOString(),
      } as const;
      if (!(await store.refs.updateThread(id, thread.head, back))) throw new Error(`could not reset ${id}`);
      const index = await store.refs.recallChainIndex(id, { details: true });
      if (index?.steps.at(-1)?.address !== thread.head) throw new Error(`uwf step did not index ${id}`);
      await store.refs.rememberChainIndex(id, { ...index, steps: index.steps.slice(0, -1) });
    } finally {
      await store.close();
    }
  };
  const step = (extra: Record<string, string>, runs: number, warmup = plan.warmup): MeasureProcessOptions => ({
    command: [options.binary, "step", id, "--agent", `scripted:${built.familyScenario}`],
    cwd: built.work,
    env: { ...environment(), ...extra },
    runs,
    warmup,
    after: reset,
  });
  let before = 0;
  try {
    const [floor, none, withFast, withSilent] = (await measureInterleaved(
      [
        { command: floorCommand, cwd: built.work, env: environment(), runs: plan.otelRuns, warmup: plan.warmup },
        step({}, plan.otelRuns),
        {
          ...step({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${fast.port}` }, plan.otelRuns),
          before: () => {
            before = requests;
          },
          after: async (run) => {
            if (requests === before) throw new Error(`the fast collector got no spans:\n${run.stderr}`);
            await reset();
          },
        },
        step({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${silent.port}` }, plan.otelSilentRuns, 0),
      ],
      runProcessAsync,
    )) as [Summary, Summary, Summary, Summary];
    const timed = (summary: Summary): Timed => ({
      summary,
      floorMultiple: round(summary.medianMs / floor.medianMs, 2),
    });
    return {
      none: timed(none),
      fast: timed(withFast),
      silent: timed(withSilent),
      floor,
      fastAddedMs: round(withFast.medianMs - none.medianMs),
      silentAddedMs: round(withSilent.medianMs - none.medianMs),
      silentWaitMs: round(withSilent.medianMs - withFast.medianMs),
      requests,
    };
  } finally {
    fast.stop(true);
    silent.stop(true);
  }
}

async function measureMcp(
  options: AloneOptions<ReplayOtelMcpPlan>,
  built: BenchHome,
  env: Record<string, string | undefined>,
  floorCommand: string[],
): Promise<ReplayOtelMcpResult["mcp"]> {
  const { plan } = options;
  const floors: number[] = [];
  const starts: number[] = [];
  const lists: number[] = [];
  const shows: number[] = [];
  const clean = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  for (let session = 0; session < plan.warmup + plan.mcpSessions; session++) {
    const kept = session >= plan.warmup;
    const floor = runProcess(floorCommand, built.work, env);
    if (kept) floors.push(floor.ms);
    const transport = new StdioClientTransport({
      command: options.binary,
      args: ["mcp", "--read-only"],
      cwd: built.work,
      env: clean,
      stderr: "pipe",
    });
    const client = new Client({ name: "uwf-bench", version: "1.0.0" });
    let began = Bun.nanoseconds();
    await client.connect(transport);
    if (kept) starts.push((Bun.nanoseconds() - began) / 1e6);
    try {
      for (const [name, input, into] of [
        ["list", {}, lists],
        ["show", { reference: built.original }, shows],
      ] as const) {
        for (let call = 0; call < plan.mcpCalls; call++) {
          began = Bun.nanoseconds();
          const result = await client.callTool({ name, arguments: input });
          const ms = (Bun.nanoseconds() - began) / 1e6;
          if (result.isError === true) throw new Error(`uwf mcp's ${name}: ${JSON.stringify(result.content)}`);
          if (kept) into.push(ms);
        }
      }
    } finally {
      await client.close();
    }
  }
  const floor = summarize(floors);
  const start = summarize(starts);
  return {
    start: { summary: start, floorMultiple: round(start.medianMs / floor.medianMs, 2) },
    list: summarize(lists),
    show: summarize(shows),
    floor,
  };
}

export function checkReplayOtelMcpTargets(result: ReplayOtelMcpResult): TargetCheck[] {
  const { replay, otel, mcp } = result;
  const atTargetSize = replay.threads >= REPLAY_TARGET.threads;
  return [
    {
      target: `\`uwf replay --forks-of T --workflow FILE\` of ${REPLAY_TARGET.threads} threads of ${FAMILY_STEPS} steps under ${REPLAY_TARGET.ms} ms`,
      measured: atTargetSize
        ? `${replay.family.summary.medianMs} ms for ${replay.threads} threads (${replay.perThreadMs} ms a thread)`
        : `${replay.projectedTargetMs} ms projected from ${replay.threads} threads at ${replay.perThreadMs} ms a thread`,
      met: (atTargetSize ? replay.family.summary.medianMs : replay.projectedTargetMs) < REPLAY_TARGET.ms,
    },
    {
      target: `\`uwf scenario export\` of a ${result.export.steps}-step thread (to a JSON file) under ${EXPORT_TARGET_MS} ms`,
      measured: `${result.export.json.summary.medianMs} ms = ${result.export.json.floorMultiple}×`,
      met: result.export.json.summary.medianMs < EXPORT_TARGET_MS,
    },
    {
      target: `\`uwf step\` (1-step thread) without \`OTEL_EXPORTER_OTLP_ENDPOINT\`: within ${STEP_FLOOR_MULTIPLE}× the floor, as any step`,
      measured: `${otel.none.summary.medianMs} ms = ${otel.none.floorMultiple}×`,
      met: otel.none.floorMultiple <= STEP_FLOOR_MULTIPLE,
    },
    {
      target: `live export to a collector that answers at once adds under ${OTEL_FAST_ADDED_TARGET_MS} ms to \`uwf step\``,
      measured: `+${otel.fastAddedMs} ms (${otel.fast.summary.medianMs} vs ${otel.none.summary.medianMs} ms)`,
      met: otel.fastAddedMs < OTEL_FAST_ADDED_TARGET_MS,
    },
    {
      target: `a collector that never answers holds \`uwf step\`'s exit no longer than the ${OTEL_EXIT_DEADLINE_MS} ms deadline and ${OTEL_EXIT_SLACK_MS} ms to exit (beyond what a fast collector costs)`,
      measured: `+${otel.silentWaitMs} ms over the fast collector (+${otel.silentAddedMs} ms over no endpoint)`,
      met: otel.silentWaitMs <= OTEL_EXIT_DEADLINE_MS + OTEL_EXIT_SLACK_MS,
    },
    {
      target: `\`uwf mcp\` answers \`initialize\` within ${MCP_START_FLOOR_MULTIPLE}× the floor of its spawn`,
      measured: `${mcp.start.summary.medianMs} ms = ${mcp.start.floorMultiple}×`,
      met: mcp.start.floorMultiple <= MCP_START_FLOOR_MULTIPLE,
    },
    {
      target: `\`uwf mcp\`'s \`list\` and \`show\` tool calls under ${MCP_CALL_TARGET_MS} ms (median)`,
      measured: `list ${mcp.list.medianMs} ms, show ${mcp.show.medianMs} ms`,
      met: mcp.list.medianMs < MCP_CALL_TARGET_MS && mcp.show.medianMs < MCP_CALL_TARGET_MS,
    },
  ];
}

export function formatReplayOtelMcp(result: ReplayOtelMcpResult): string[] {
  const span = (summary: Summary) => `${summary.medianMs} (${summary.minMs}–${summary.maxMs})`;
  const { replay, otel, mcp } = result;
  const exported = result.export;
  return [
    `| replay, scenario export, live OTel export, \`uwf mcp\` (issues 33, 34) | median ms (min–max) | × floor |`,
    "|---|--:|--:|",
    `| \`uwf replay --forks-of T --workflow FILE\`: ${replay.threads} threads of ${replay.stepsEach} steps | ${span(replay.family.summary)} | ${replay.family.floorMultiple} |`,
    `| \`uwf replay T --workflow FILE\`: one of them (per further thread: ${replay.perThreadMs} ms) | ${span(replay.single.summary)} | ${replay.single.floorMultiple} |`,
    `| \`uwf replay T --workflow loop\`: the same through the registered workflow (no file checked) | ${span(replay.singleByName.summary)} | ${replay.singleByName.floorMultiple} |`,
    `| \`uwf scenario export T -o F.json\`: ${exported.steps} steps (${exported.bytes.json} bytes) | ${span(exported.json.summary)} | ${exported.json.floorMultiple} |`,
    `| \`uwf scenario export T\`: the same as YAML on stdout (${exported.bytes.yaml} bytes) | ${span(exported.yaml.summary)} | ${exported.yaml.floorMultiple} |`,
    `| \`uwf list\` (reference for the MCP call) | ${span(result.reference.list.summary)} | ${result.reference.list.floorMultiple} |`,
    `| \`uwf show T\` (reference for the MCP call) | ${span(result.reference.show.summary)} | ${result.reference.show.floorMultiple} |`,
    `| floor (\`bun -e 0\`), with the rows above | ${span(replay.floor)} | 1 |`,
    `| \`uwf step\` (1-step thread), no OTLP endpoint | ${span(otel.none.summary)} | ${otel.none.floorMultiple} |`,
    `| the same, endpoint answering 200 at once (+${otel.fastAddedMs} ms) | ${span(otel.fast.summary)} | ${otel.fast.floorMultiple} |`,
    `| the same, endpoint that never answers (+${otel.silentAddedMs} ms) | ${span(otel.silent.summary)} | ${otel.silent.floorMultiple} |`,
    `| floor (\`bun -e 0\`), with the steps | ${span(otel.floor)} | 1 |`,
    `| \`uwf mcp\`: spawn to the \`initialize\` answer | ${span(mcp.start.summary)} | ${mcp.start.floorMultiple} |`,
    `| \`uwf mcp\`: a \`list\` call | ${span(mcp.list)} | |`,
    `| \`uwf mcp\`: a \`show THREAD\` call | ${span(mcp.show)} | |`,
    `| floor (\`bun -e 0\`), one before each session | ${span(mcp.floor)} | 1 |`,
  ];
}

/** The full run: the replay target's size, a 200-step export. */
export const FULL_REPLAY_OTEL_MCP_PLAN: ReplayOtelMcpPlan = {
  familyForks: REPLAY_TARGET.threads - 1,
  exportSteps: 200,
  processRuns: 11,
  otelRuns: 15,
  otelSilentRuns: 5,
  mcpSessions: 11,
  mcpCalls: 10,
  warmup: 2,
};

/** CI's smoke run: every benchmark once or twice at small sizes (the silent collector's run costs 2 s). */
export const SMOKE_REPLAY_OTEL_MCP_PLAN: ReplayOtelMcpPlan = {
  familyForks: 19,
  exportSteps: 20,
  processRuns: 2,
  otelRuns: 2,
  otelSilentRuns: 1,
  mcpSessions: 2,
  mcpCalls: 3,
  warmup: 1,
};

if (import.meta.main) {
  await runBenchmarkAlone({
    name: "uwf-replay-otel-mcp-bench-",
    plans: { full: FULL_REPLAY_OTEL_MCP_PLAN, smoke: SMOKE_REPLAY_OTEL_MCP_PLAN },
    measure: measureReplayOtelMcp,
    report: (result) => [...formatReplayOtelMcp(result), ...targetLines(checkReplayOtelMcpTargets(result))],
  });
}
