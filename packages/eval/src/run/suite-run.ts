import type { ThreadRecord } from "@uwf/protocol";

/** Why a run has no finished thread although it started, or could not start. */
export const SUITE_BUDGET_REACHED = "suite budget reached";
export const SUITE_INTERRUPTED = "interrupted before it finished";

/** Which run of the suite: its case (null with `from:`), variant (null when unnamed) and repeat (0-based). */
export interface SuiteRunKey {
  case: string | null;
  variant: string | null;
  repeat: number;
}

export interface SuiteRunStarted extends SuiteRunKey {
  thread: string;
  reused: boolean;
}

/** One run of the suite, as runSuite returns it. */
export interface SuiteRun extends SuiteRunKey {
  /** Its thread; null when it could not start. */
  thread: string | null;
  /** The thread as the run left it; null when it could not start. */
  record: ThreadRecord | null;
  /** The thread was found from an earlier run of the suite (it may have been stepped on, if it was active). */
  reused: boolean;
  /**
   * Why the run is not a finished sample: it could not start (a bad workflow, a missing fixture…), the
   * suite's budget was reached (SUITE_BUDGET_REACHED) or it was interrupted (SUITE_INTERRUPTED) before
   * its thread finished, or a step failed without failing the thread. Null for a thread that ended,
   * failed, was cancelled or suspended: those are samples.
   */
  error: string | null;
}

export interface SuiteRunResult {
  /** One per run: case × variant × repeat in that order, or per variant its forks with `from:`. */
  runs: SuiteRun[];
  /** What the runs spent in this call, in US dollars (reused finished threads spend nothing). */
  spentUsd: number;
  /** The limit that applied: the smaller of the file's `max_cost_usd` and the caller's; null without. */
  maxCostUsd: number | null;
  /** Why runs were left unfinished: the suite's budget, Ctrl-C; null when none was. */
  stoppedBy: "max-cost" | "interrupted" | null;
}
