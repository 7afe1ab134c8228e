import type { Summary } from "./measure.ts";

/**
 * A benchmark against the same threads stepped by `uwf step - --all --parallel N` (made beforehand, not timed):
 * the suite's runSuite and explore's forks each check their median against that batch's.
 */
export interface StepBatchComparison {
  parallel: number;
  /** `uwf step - --all --parallel N` over the same threads. */
  stepBatch: Summary;
  /** The benchmark's median / the step batch's median. */
  ratio: number;
}
