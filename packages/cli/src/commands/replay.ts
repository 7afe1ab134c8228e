import { loadReplayWorkflow, replayThreads } from "@uwf/engine";
import { isUwfError, type ReplayResult } from "@uwf/protocol";
import { UsageError } from "../errors/usage-error.ts";
import { EXIT_FAILED, EXIT_OK } from "../exit-codes.ts";
import { formatReplay } from "../format/experiments/format-replay.ts";
import type { CommandContext } from "../pipeline/command-context.ts";
import type { CommandOutcome } from "../pipeline/command-outcome.ts";
import { readThreadArguments } from "./thread/step/read-thread-arguments.ts";

export interface ReplayCommandOptions {
  /** Thread ids or prefixes; `-` reads them from stdin, one a line. */
  threads?: string[];
  /** The workflow to replay through: a file, a registered name, a project workflow or an address. */
  workflow: string;
  /** Also this thread and its forks, at any depth. */
  forksOf?: string;
}

/**
 * What a replay's own input can get wrong: the workflow (missing, invalid: named by file and line) or a
 * thread (unknown, ambiguous). Exit 2, as usage errors, so that exit 1 means only "a thread diverged".
 */
const INPUT_ERROR_CODES: ReadonlySet<string> = new Set([
  "invalid-workflow",
  "workflow-not-found",
  "not-a-workflow",
  "thread-not-found",
  "ambiguous-thread",
]);

/**
 * `uwf replay THREAD… --workflow W`: each thread's recorded replies routed through W, no agent run and
 * nothing written; exit 0 when every thread replays identically, 1 when any diverged.
 */
export async function replayCommand(
  options: ReplayCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<ReplayResult>> {
  const named = options.threads ?? [];
  if (named.length === 0 && options.forksOf === undefined) {
    throw new UsageError("name the threads to replay (or - for stdin), or --forks-of THREAD");
  }
  const threads = named.length === 0 ? [] : await readThreadArguments(named, "no thread to replay was given on stdin");
  const store = await context.openStore({ create: false });
  let result: ReplayResult;
  try {
    const target = await loadReplayWorkflow({
      store,
      reference: options.workflow,
      cwd: context.cwd,
      home: context.home,
    });
    result = await replayThreads({
      store,
      target,
      threads,
      ...(options.forksOf === undefined ? {} : { forksOf: options.forksOf }),
    });
  } catch (error) {
    if (isUwfError(error) && INPUT_ERROR_CODES.has(error.code)) {
      throw new UsageError(error.message, { cause: error.code, ...(error.data as Record<string, unknown>) });
    }
    throw error;
  }
  return {
    result,
    format: formatReplay,
    exitCode: result.diverged === 0 ? EXIT_OK : EXIT_FAILED,
  };
}
