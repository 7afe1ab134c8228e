import type { StepThreadsResult } from "@uwf/protocol";
import { UsageError } from "../../errors/usage-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import { readStdin } from "../../read-input-file.ts";
import { stepCommand } from "./step.ts";
import { stepBatch } from "./step-batch.ts";

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
  if (!batch) return stepCommand({ ...step, thread: threads[0] as string }, context);
  return stepBatch(
    {
      references: await readThreadArguments(threads),
      limit: options.all === true ? Number.POSITIVE_INFINITY : (options.steps ?? 1),
      parallel: parallel ?? 1,
      maxCostUsd: batchMaxCost,
      agent: options.agent,
      timeout: options.timeout,
    },
    context,
  );
}

/** The thread arguments with `-` replaced by stdin's lines (blank ones skipped, spaces trimmed). */
async function readThreadArguments(threads: readonly string[]): Promise<string[]> {
  if (threads.filter((thread) => thread === "-").length > 1) throw new UsageError("give - once: it reads stdin");
  const references: string[] = [];
  for (const thread of threads) {
    if (thread !== "-") references.push(thread);
    else {
      const read = await readStdin();
      if (!read.success) throw new UsageError(`- (stdin) ${read.problem}`);
      const lines = read.value.split("\n").map((line) => line.trim());
      references.push(...lines.filter((line) => line !== ""));
    }
  }
  if (references.length === 0) throw new UsageError("no threads to step: stdin held no thread id");
  return references;
}
