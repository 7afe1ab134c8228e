import { resolve } from "node:path";
import { type EvaluateOptions, evaluateSelection, evaluateSuite, type StoredEvalReport } from "@uwf/eval";
import { type EvalResult, type ThreadStatus, threadStatusSchema } from "@uwf/protocol";
import { SuiteInterruptedError } from "../../errors/index.ts";
import { UsageError } from "../../errors/usage-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import { readThreadArguments } from "../thread/step/read-thread-arguments.ts";
import { type EvalOutputOptions, type EvaluateFlags, scoreAndShow } from "./eval-output.ts";

export interface EvalRunCommandOptions extends EvaluateFlags, EvalOutputOptions {
  /** Thread ids or prefixes; `-` reads more from stdin, one per line. */
  threads?: string[];
  forksOf?: string;
  recursive?: boolean;
  workflow?: string;
  status?: string;
  suite?: string;
  /**
   * Not a flag: the suite's YAML text, as `uwf mcp` sends it (never a file from the request). Relative
   * paths in it are read from the working directory; its workflows must be registered names or hashes.
   */
  suiteText?: string;
  parallel?: number;
  queue?: boolean;
  fresh?: boolean;
  count?: number;
  maxCost?: number;
  /** `--max-runs N`: the most runs the suite may start (default MAX_SUITE_RUNS). */
  maxRuns?: number;
}

/**
 * `uwf eval`: scores stored threads (named, a fork family, or filtered), or runs a suite and scores what
 * it ran; stores the report and prints it. Exit 1 when samples errored, 3 when the gate did not hold.
 */
export async function evalRunCommand(
  options: EvalRunCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<EvalResult>> {
  const status = options.status === undefined ? undefined : threadStatusSchema.safeParse(options.status);
  if (status !== undefined && !status.success) {
    throw new UsageError(`--status ${options.status}: expected one of ${threadStatusSchema.options.join(", ")}`);
  }
  if (options.recursive === true && options.forksOf === undefined) {
    throw new UsageError("--recursive scores the forks of forks: it needs --forks-of THREAD");
  }
  const generating = ["parallel", "queue", "fresh", "count", "maxCost", "maxRuns"] as const;
  const stray = generating.find((key) => options[key] !== undefined);
  const suiteGiven = options.suite !== undefined || options.suiteText !== undefined;
  if (stray !== undefined && !suiteGiven) {
    throw new UsageError(`--${kebab(stray)} runs a suite's threads: it needs --suite FILE`);
  }
  if (suiteGiven && (options.threads?.length ?? 0) + (options.forksOf === undefined ? 0 : 1) > 0) {
    throw new UsageError("--suite runs its own threads: give it without threads or --forks-of");
  }
  const outcome = await scoreAndShow(options, context, (evaluation) =>
    suiteGiven ? runSuite(options, context, evaluation) : scoreSelection(options, context, evaluation, status?.data),
  );
  // Ctrl-C or SIGTERM stopped the suite: its report (of what finished) is stored and printed, and it exits 130.
  if (options.suite !== undefined && context.signal.aborted) {
    const reason = String(context.signal.reason ?? "SIGINT");
    const { report, samples } = outcome.result;
    return { ...outcome, error: new SuiteInterruptedError(reason, report, samples.length) };
  }
  return outcome;
}

/** `--suite FILE` (or a request's suite text): runs its threads, showing their progress, and scores them. */
async function runSuite(
  options: EvalRunCommandOptions,
  context: CommandContext,
  evaluation: EvaluateOptions,
): Promise<StoredEvalReport> {
  const counts = { running: 0, queued: 0, done: 0, failed: 0 };
  const startedAt = Date.now();
  const showProgress = () => context.progress({ batch: { ...counts }, startedAt });
  const stored = await evaluateSuite({
    ...evaluation,
    ...(options.suiteText === undefined
      ? { file: resolve(context.cwd, options.suite ?? "") }
      : { file: resolve(context.cwd, "suite.yaml"), source: options.suiteText, workflowFiles: false }),
    parallel: options.parallel,
    queue: options.queue === true,
    fresh: options.fresh === true,
    count: options.count,
    maxCostUsd: options.maxCost,
    ...(options.maxRuns === undefined ? {} : { maxRuns: options.maxRuns }),
    onRunStarted: () => {
      counts.running++;
      showProgress();
    },
    onRunFinished: (run) => {
      counts.running = Math.max(0, counts.running - 1);
      if (run.thread === null) counts.failed++;
      else counts.done++;
      showProgress();
    },
  });
  context.progress(null);
  return stored;
}

/** Stored threads: named (`-` reads more from stdin), a fork family, or filtered by workflow and status. */
async function scoreSelection(
  options: EvalRunCommandOptions,
  context: CommandContext,
  evaluation: EvaluateOptions,
  status: ThreadStatus | undefined,
): Promise<StoredEvalReport> {
  const threads =
    options.threads === undefined || options.threads.length === 0
      ? []
      : await readThreadArguments(options.threads, "nothing to evaluate: stdin held no thread id");
  return evaluateSelection({
    ...evaluation,
    // A request (`uwf mcp`) names its judges by what the store holds, never by a file.
    ...(context.storedWorkflowsOnly === true ? { workflowFiles: false } : {}),
    selection: {
      threads,
      forksOf: options.forksOf,
      recursive: options.recursive,
      workflow: options.workflow,
      status,
    },
  });
}

function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}
