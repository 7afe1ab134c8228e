import type { StepThreadsResult } from "@uwf/protocol";
import { formatRunTotals } from "../../../format/runs/format-run-totals.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";
import { readThreadArguments } from "./read-thread-arguments.ts";
import { stepBatch } from "./step-batch.ts";
import { stepOneThreadCommand } from "./step-one-thread.ts";

export interface StepThreadsCommandOptions {
  /** Thread ids or prefixes; `-` reads more from stdin, one per line. */
  threads: string[];
  steps?: number;
  all?: boolean;
  agent?: string;
  timeout?: number;
  /** `--parallel K`: step the threads K at a time. */
  parallel?: number;
  /** `--batch-max-cost USD`: start no step once the batch has spent this much. */
  batchMaxCost?: number;
}

/**
 * `uwf step`: one thread as before, or a batch — several threads, `-`, `--parallel` or
 * `--batch-max-cost` — whose result lists every thread (`stepBatchResultSchema`). The shape follows
 * the command line, not how many ids stdin brought, so a script always gets the same one.
 */
export async function stepThreadsCommand(
  options: StepThreadsCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<StepThreadsResult>> {
  const { threads, parallel, batchMaxCost, ...step } = options;
  const batch = threads.length > 1 || threads.includes("-") || parallel !== undefined || batchMaxCost !== undefined;
  if (!batch) {
    const startedAt = Date.now();
    const outcome = await stepOneThreadCommand({ ...step, thread: threads[0] as string }, context);
    // `step --all` ends with its totals, as `run` does (stderr; not with -q or --json).
    if (options.all === true) context.note(formatRunTotals(outcome.result.steps, Date.now() - startedAt));
    return outcome;
  }
  return stepBatch(
    {
      references: await readThreadArguments(threads, "no threads to step: stdin held no thread id"),
      limit: options.all === true ? Number.POSITIVE_INFINITY : (options.steps ?? 1),
      parallel: parallel ?? 1,
      maxCostUsd: batchMaxCost,
      agent: options.agent,
      timeout: options.timeout,
    },
    context,
  );
}
