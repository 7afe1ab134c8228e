import { type MeasureProcessOptions, measureInterleaved, type ProcessRun, round } from "./measure.ts";

/** Where one `uwf step` spends its time: the median of each phase `UWF_TRACE=1` reports, in order. */
export interface StepTrace {
  runs: number;
  /** Each phase's own duration: from the end of the one before (for the first, from process start). */
  phases: { phase: string; ms: number }[];
}

/**
 * Runs the step benchmark's own command with `UWF_TRACE=1` (the same thread, reset after each run)
 * and takes, for each phase the CLI reports, the median of its duration over the runs. The trace is
 * the CLI's, so this cannot drift from what a step really does.
 */
export async function measureStepTrace(options: MeasureProcessOptions): Promise<StepTrace> {
  const samples = new Map<string, number[]>();
  const order: string[] = [];
  let seen = 0;
  await measureInterleaved([
    {
      ...options,
      env: { ...options.env, UWF_TRACE: "1" },
      after: async (run: ProcessRun) => {
        await options.after?.(run);
        // measureInterleaved calls `after` for the warm-up runs too; their phases are not samples.
        if (++seen <= options.warmup) return;
        let previous = 0;
        for (const { phase, atMs } of parseTrace(run.stderr)) {
          if (!samples.has(phase)) {
            samples.set(phase, []);
            order.push(phase);
          }
          samples.get(phase)?.push(atMs - previous);
          previous = atMs;
        }
      },
    },
  ]);
  return {
    runs: options.runs,
    phases: order.map((phase) => ({ phase, ms: round(median(samples.get(phase) ?? []), 1) })),
  };
}

/** `uwf trace: 12.3 ms chain read` lines, in the order printed. */
export function parseTrace(stderr: string): { phase: string; atMs: number }[] {
  return [...stderr.matchAll(/^uwf trace: (\d+(?:\.\d+)?) ms (.+)$/gm)].map((match) => ({
    phase: match[2] as string,
    atMs: Number(match[1]),
  }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
