/**
 * The benchmarks of issues 33 and 34's commands, on one fresh home built in-process through the engine
 * (replay-bench-home.ts):
 * 1. `uwf replay --forks-of T --workflow FILE` over a family of threads of 10 steps (an original that ended
 *    at its 10th step, and forks of it made at its steps 5–9, each stepped to its own end at step 10), and
 *    `uwf replay T` of the original alone: the per-thread cost is their difference over the other threads;
 * 2. `uwf scenario export` of a long thread (200 steps in the full run), to a JSON file and as YAML on stdout;
 * 3. `uwf step` of a 1-step thread without `OTEL_EXPORTER_OTLP_ENDPOINT`, with it naming a receiver in this
 *    process that answers 200 at once, and with it naming one that accepts the connection and never answers
 *    (the exit's flush then waits out its 2 s deadline), timed round-robin with the floor (otel-step-benchmark.ts);
 * 4. `uwf mcp`: spawning it to the `initialize` answer (the SDK client's `connect`), then `list` and `show`
 *    tool calls over stdio (mcp-benchmark.ts), against `uwf list` and `uwf show` as processes.
 * Every process is timed against the floor (`bun -e 0`) measured round-robin with it.
 * Run alone with `bun bench/lib/replay-otel-mcp-benchmarks.ts [--smoke]` (builds the binary if missing).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { type McpPlan, type McpResult, measureMcp } from "./mcp-benchmark.ts";
import {
  type MeasureProcessOptions,
  measureInterleaved,
  round,
  runProcess,
  type Summary,
  type Timed,
  timedAgainst,
} from "./measure.ts";
import { measureOtel, type OtelStepPlan, type OtelStepResult } from "./otel-step-benchmark.ts";
import {
  type BenchHome,
  type BenchHomePlan,
  buildHome,
  FAMILY_STEPS,
  LOOP_WORKFLOW_FILE,
  LOOP_WORKFLOW_NAME,
} from "./replay-bench-home.ts";
import type { TargetCheck } from "./report.ts";
import { type AloneOptions, runBenchmarkAlone, targetLines } from "./run-benchmark-alone.ts";

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

export interface ReplayOtelMcpPlan extends BenchHomePlan, OtelStepPlan, McpPlan {
  /** Runs of the replay, export and CLI reference processes (and the floor with them). */
  processRuns: number;
  warmup: number;
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
  otel: OtelStepResult;
  mcp: McpResult;
  loadAverage: { start: number[]; end: number[] };
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
    const timed = (summary: Summary) => timedAgainst(floor, summary);
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
    const otel = await measureOtel(options.binary, plan, built, environment, floorCommand);
    progress(
      `uwf step: no endpoint ${otel.none.summary.medianMs} ms, fast collector ${otel.fast.summary.medianMs} ms (+${otel.fastAddedMs}), silent collector ${otel.silent.summary.medianMs} ms (+${otel.silentAddedMs}); floor ${otel.floor.medianMs} ms`,
    );

    // 4. `uwf mcp` over stdio.
    const mcp = await measureMcp(options.binary, plan, built, environment(), floorCommand);
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
