/**
 * The fork experiments' benchmarks (issue 17): `uwf fork --count N` of a thread's head, `uwf diff` of
 * two long threads that part halfway, and `uwf tree` of a large family; and issue 29's `uwf compare` of
 * that family. All on one store built by bench/generate-fork-store.ts, with their targets as multiples
 * of the floor.
 */
import { join } from "node:path";
import { type GeneratedForkStore, generateForkStore } from "../generate-fork-store.ts";
import type { MeasureProcessOptions } from "./measure.ts";
import type { ProcessBenchmark, TargetCheck } from "./report.ts";

export interface ForkBenchmarkPlan {
  /** Steps of each thread of the diverging pair, and how many of them the two share. */
  pairSteps: number;
  pairCommonSteps: number;
  /** Forks in the family `tree` draws (the original besides). */
  familyForks: number;
  /** N of `fork --count N`. */
  forkCount: number;
  runs: number;
}

export interface ForkBenchmarkEntry {
  id: string;
  name: string;
  store: string;
  options: MeasureProcessOptions;
  /** The bound on the median, as a multiple of the floor. */
  withinFloorMultiple: number;
}

/** Each fork is made at the source thread's 100-step head. */
const SOURCE_STEPS = 100;
const FAMILY_ROOT_STEPS = 20;

export async function prepareForkStore(
  temporaryRoot: string,
  plan: ForkBenchmarkPlan,
  cwd: string,
): Promise<GeneratedForkStore> {
  const generated = await generateForkStore({
    home: join(temporaryRoot, "fork-home"),
    pairSteps: plan.pairSteps,
    pairCommonSteps: plan.pairCommonSteps,
    familyRootSteps: FAMILY_ROOT_STEPS,
    familyForks: plan.familyForks,
    sourceSteps: SOURCE_STEPS,
    cwd,
  });
  // Flush the generator's writes now, so the timed runs do not pay for their write-back.
  Bun.spawnSync(["sync"]);
  return generated;
}

/**
 * The four benchmarks, for one round-robin group. `fork --count` adds N threads to the source
 * thread's family on each run, which none of the others read: the diff reads two records and their
 * chains, the tree and the comparison only the family of its own start node.
 */
export function forkBenchmarks(
  store: GeneratedForkStore,
  plan: ForkBenchmarkPlan,
  uwf: (home: string, args: string[], runs: number) => MeasureProcessOptions,
): ForkBenchmarkEntry[] {
  const label = `${count(store.threads)} threads`;
  const [left, right] = store.pair;
  return [
    {
      id: "fork-count",
      name: `uwf fork THREAD --count ${plan.forkCount} (${SOURCE_STEPS}-step head)`,
      store: label,
      options: uwf(store.home, ["fork", store.source.thread, "--count", String(plan.forkCount)], plan.runs),
      withinFloorMultiple: 20,
    },
    {
      id: "diff-diverged",
      name: `uwf diff A B (${count(plan.pairSteps)}-step threads that part at step ${count(plan.pairCommonSteps + 1)})`,
      store: label,
      options: uwf(store.home, ["diff", left, right], plan.runs),
      withinFloorMultiple: 10,
    },
    {
      id: "tree-family",
      name: `uwf tree (a family of ${count(plan.familyForks)} forks, ${store.family.deepest} levels)`,
      store: label,
      options: uwf(store.home, ["tree", store.family.original], plan.runs),
      withinFloorMultiple: 10,
    },
    {
      // Issue 29 item 7: one row per member, each member's chain index and up to two step nodes read.
      id: "compare-family",
      name: `uwf compare (a family of ${count(plan.familyForks)} forks, ${store.family.deepest} levels)`,
      store: label,
      options: uwf(store.home, ["compare", store.family.original], plan.runs),
      withinFloorMultiple: 20,
    },
  ];
}

/** Issue 17's and 29's targets: each benchmark's median as a multiple of the floor measured with it. */
export function checkForkTargets(
  entries: readonly ForkBenchmarkEntry[],
  processes: readonly ProcessBenchmark[],
): TargetCheck[] {
  return entries.map((entry) => {
    const measured = processes.find((benchmark) => benchmark.id === entry.id);
    if (measured === undefined) throw new Error(`no benchmark ${entry.id}`);
    return {
      target: `${entry.name}, ${entry.store}: within ${entry.withinFloorMultiple}× the floor`,
      measured: `${measured.summary.medianMs.toFixed(1)} ms = ${measured.floorMultiple.toFixed(1)}×`,
      met: measured.floorMultiple <= entry.withinFloorMultiple,
    };
  });
}

function count(value: number): string {
  return value.toLocaleString("en-US");
}
