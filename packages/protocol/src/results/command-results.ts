import type { ExpandedNode, ShowTextResult } from "./node-results.ts";
import type { StepBatchResult } from "./step-batch-result.ts";
import type { ShownThread, StartResult, StepResult } from "./thread-results.ts";

/**
 * The results of commands whose shape follows their flags; each member has its own schema, which
 * `uwf help json` names.
 */

/** `uwf run`: the steps it took (stepResultSchema), or with `--queue` the thread it started (startResultSchema). */
export type RunResult = StepResult | StartResult;

/** `uwf step`: one thread's steps (stepResultSchema), or a batch's threads (stepBatchResultSchema). */
export type StepThreadsResult = StepResult | StepBatchResult;

/** `uwf resume`: the steps it took (stepResultSchema), or with `--queue` the thread put back (shownThreadSchema). */
export type ResumeResult = StepResult | ShownThread;

/** `uwf show`: a thread (shownThreadSchema), a node expanded (expandedNodeSchema), or `--prompt`/`--reply`'s text. */
export type ShowResult = ShownThread | ExpandedNode | ShowTextResult;
