import { join } from "node:path";
import { type MeasureProcessOptions, measureInterleaved, round, type Summary } from "./measure.ts";
import type { ProcessBenchmark } from "./report.ts";
import type { AloneContext } from "./run-benchmark-alone.ts";

/** What the suite's modules measure with: a benchmark module's context and the folder every process runs in. */
export interface SuiteContext extends AloneContext {
  work: string;
}

/** One process benchmark of a group: how it is shown (`id`, `name`, the store it ran on) and how it runs. */
export interface GroupEntry {
  id: string;
  name: string;
  store: string;
  options: MeasureProcessOptions;
}

/** The suite's process benchmarks, each timed in a group round-robin with the floor (`bun -e 0`). */
export interface ProcessGroups {
  /** Every benchmark measured so far, with its group's floor. */
  processes: ProcessBenchmark[];
  /** Each group's floor samples, in the order the groups ran. */
  floorSamples: number[][];
  /** A home with no store, for the commands that read none. */
  emptyHome: string;
  /** The floor, `bun -e 0`, run `runs` times after `warmup`. */
  floorOptions(runs: number, warmup: number): MeasureProcessOptions;
  /**
   * Measures a group of benchmarks round-robin together with the floor, so each median is divided by a floor
   * measured in the same minutes: this machine's speed drifts.
   */
  measureGroup(entries: GroupEntry[]): Promise<void>;
  /** The built CLI with `args` on `home`, run `runs` times after `warmup` (the plan's unless told). */
  uwf(home: string, args: string[], runs: number, warmup?: number): MeasureProcessOptions;
}

export function createProcessGroups(context: SuiteContext, defaultWarmup: number): ProcessGroups {
  const { binary, work, environment, progress } = context;
  const processes: ProcessBenchmark[] = [];
  const floorSamples: number[][] = [];
  const emptyHome = join(context.temporaryRoot, "empty-home");
  const floorOptions = (runs: number, warmup: number): MeasureProcessOptions => ({
    command: [process.execPath, "-e", "0"],
    cwd: work,
    env: environment(emptyHome),
    runs,
    warmup,
  });
  const measureGroup = async (entries: GroupEntry[]) => {
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
  const uwf = (home: string, args: string[], runs: number, warmup = defaultWarmup): MeasureProcessOptions => ({
    command: [binary, ...args],
    cwd: work,
    env: environment(home),
    runs,
    warmup,
  });
  return { processes, floorSamples, emptyHome, floorOptions, measureGroup, uwf };
}
