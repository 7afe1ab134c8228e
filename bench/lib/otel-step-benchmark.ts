import { openFileStore } from "../../packages/cas/src/index.ts";
import {
  type MeasureProcessOptions,
  measureInterleaved,
  type ProcessRun,
  round,
  type Summary,
  type Timed,
  timedAgainst,
} from "./measure.ts";
import type { BenchHome } from "./replay-bench-home.ts";
import { resetSteppedThread } from "./reset-stepped-thread.ts";

export interface OtelStepPlan {
  /** Runs of `uwf step` without and with the fast collector; with the silent one (2 s each). */
  otelRuns: number;
  otelSilentRuns: number;
  warmup: number;
}

export interface OtelStepResult {
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

/**
 * `uwf step` of the home's 1-step thread without `OTEL_EXPORTER_OTLP_ENDPOINT`, with it naming a receiver in
 * this process that answers 200 at once, and with it naming one that accepts the connection and never answers
 * (the exit's flush then waits out its 2 s deadline), timed round-robin with the floor; the thread is put back
 * after each run.
 */
export async function measureOtel(
  binary: string,
  plan: OtelStepPlan,
  built: BenchHome,
  environment: () => Record<string, string | undefined>,
  floorCommand: string[],
): Promise<OtelStepResult> {
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
      await resetSteppedThread(store, id, { head, steps });
    } finally {
      await store.close();
    }
  };
  const step = (extra: Record<string, string>, runs: number, warmup = plan.warmup): MeasureProcessOptions => ({
    command: [binary, "step", id, "--agent", `scripted:${built.familyScenario}`],
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
    const timed = (summary: Summary) => timedAgainst(floor, summary);
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
