/** Timing of whole processes: each run spawns the command, waits for it and keeps the wall time. */

export interface Summary {
  runs: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  meanMs: number;
  samplesMs: number[];
  /**
   * The median CPU time (user and system) of the runs, the operating system's account of each finished
   * process and the children it waited for: unlike the wall time, it barely moves when other processes
   * share the cores. Absent where the runner does not report it.
   */
  cpuMedianMs?: number;
}

/** A benchmark's summary and its median as a multiple of the floor's measured round-robin with it. */
export interface Timed {
  summary: Summary;
  floorMultiple: number;
}

/** `summary` against `floor`: its median as a multiple of the floor's. */
export function timedAgainst(floor: Summary, summary: Summary): Timed {
  return { summary, floorMultiple: round(summary.medianMs / floor.medianMs, 2) };
}

export interface MeasureProcessOptions {
  command: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  runs: number;
  /** Runs before the measured ones, not kept (page cache, first-run effects). */
  warmup: number;
  /** The exit code every run must end with; anything else stops the benchmark with the run's stderr. */
  expectExitCode?: number;
  /** Outside the timing, before each run (warm-up runs included). */
  before?: () => Promise<void> | void;
  /** Outside the timing, after each run: check what it did, reset what it changed. */
  after?: (run: ProcessRun) => Promise<void> | void;
}

export interface ProcessRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  ms: number;
  /** CPU time of the finished process (user and system, with the children it waited for), when known. */
  cpuMs?: number;
}

export async function measureProcess(options: MeasureProcessOptions): Promise<Summary> {
  const [summary] = await measureInterleaved([options]);
  return summary as Summary;
}

/**
 * Several benchmarks measured round-robin (A B C A B C ...), so a slow spell of the machine
 * touches each of them alike instead of skewing whichever happened to run then: what a
 * comparison between them (the same step in a small and a large store) needs.
 */
export async function measureInterleaved(
  list: readonly MeasureProcessOptions[],
  run: ProcessRunner = runProcess,
): Promise<Summary[]> {
  const samples: number[][] = list.map(() => []);
  const cpuSamples: number[][] = list.map(() => []);
  const rounds = Math.max(...list.map((options) => options.warmup + options.runs));
  for (let round = 0; round < rounds; round++) {
    for (const [index, options] of list.entries()) {
      if (round >= options.warmup + options.runs) continue;
      await options.before?.();
      const done = await run(options.command, options.cwd, options.env);
      if (done.exitCode !== (options.expectExitCode ?? 0)) {
        throw new Error(
          `${options.command.join(" ")} exited with ${done.exitCode} (expected ${options.expectExitCode ?? 0}):\n${done.stderr.slice(-2000)}`,
        );
      }
      await options.after?.(done);
      if (round >= options.warmup) {
        samples[index]?.push(done.ms);
        if (done.cpuMs !== undefined) cpuSamples[index]?.push(done.cpuMs);
      }
    }
  }
  return samples.map((measured, index) => {
    const summary = summarize(measured);
    const cpu = cpuSamples[index] ?? [];
    return cpu.length === measured.length && cpu.length > 0
      ? { ...summary, cpuMedianMs: summarize(cpu).medianMs }
      : summary;
  });
}

/** How a benchmark runs one process: `runProcess`, or one that leaves this process's event loop free. */
export type ProcessRunner = (
  command: string[],
  cwd: string,
  env: Record<string, string | undefined>,
) => ProcessRun | Promise<ProcessRun>;

/** One run, timed from just before the spawn to the moment its exit is seen; stdout is piped like `| jq` would. */
export function runProcess(command: string[], cwd: string, env: Record<string, string | undefined>): ProcessRun {
  const began = Bun.nanoseconds();
  const child = Bun.spawnSync(command, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const ms = (Bun.nanoseconds() - began) / 1e6;
  const cpu = child.resourceUsage?.cpuTime.total;
  return {
    exitCode: child.exitCode ?? -1,
    stdout: child.stdout.toString(),
    stderr: child.stderr.toString(),
    ms,
    ...(cpu === undefined ? {} : { cpuMs: Number(cpu) / 1000 }),
  };
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return {
    runs: sorted.length,
    medianMs: round(median),
    minMs: round(sorted[0] ?? Number.NaN),
    maxMs: round(sorted.at(-1) ?? Number.NaN),
    meanMs: round(sorted.reduce((total, value) => total + value, 0) / sorted.length),
    samplesMs: samples.map(round),
  };
}

/** Times one in-process call. */
export async function timeIt<Result>(work: () => Promise<Result> | Result): Promise<{ ms: number; result: Result }> {
  const began = Bun.nanoseconds();
  const result = await work();
  return { ms: (Bun.nanoseconds() - began) / 1e6, result };
}

export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
