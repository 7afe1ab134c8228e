import { forEachConcurrently } from "@uwf/cas";
import { recordView, resolveThread, ThreadCancelledError } from "@uwf/engine";
import {
  addUsage,
  type BatchThreadOutcome,
  type BatchThreadResult,
  isUwfError,
  type StepBatchResult,
  type StepSummary,
  type ThreadRecord,
  type Usage,
  ZERO_USAGE,
} from "@uwf/protocol";
import { StdoutClosedError } from "../../../errors/stdout-closed-error.ts";
import {
  EXIT_BUSY,
  EXIT_ENDED,
  EXIT_FAILED,
  EXIT_HANGUP,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_SUSPENDED,
  exitCodeForError,
  mostSevereExitCode,
} from "../../../exit-codes.ts";
import { formatStepBatchResult } from "../../../format/runs/format-step-batch-result.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";
import { stepOneThreadCommand } from "./step-one-thread.ts";
import { toStepResult } from "./step-report.ts";

export interface StepBatchOptions {
  /** Thread ids or prefixes, in order; a thread named twice is stepped once. */
  references: readonly string[];
  /** Steps per thread: a number (`-n`), or Infinity (`--all`). */
  limit: number;
  /** At most this many threads step at once, so at most this many agents run. */
  parallel: number;
  /** `--batch-max-cost`: no step starts once the batch has spent this many US dollars. */
  maxCostUsd?: number;
  agent?: string;
  timeout?: number;
}

type StopReason = NonNullable<StepBatchResult["stoppedBy"]>;

/**
 * Steps many threads, each as `step` would (up to `limit` steps, until it ends, suspends or fails),
 * at most `parallel` at a time in one process; a thread that fails does not stop the others. Every
 * thread is resolved before any steps, so a name that matches none fails the command with nothing run.
 * Before each step the batch checks Ctrl-C and `--batch-max-cost` (what its threads' records say they
 * spent since it began, failed runs included): once either holds, no step starts, running ones finish,
 * and each thread left unfinished gets a `thread-stopped` event. The exit code is the most severe of
 * the threads' (BATCH_EXIT_CODE_ORDER).
 */
export async function stepBatch(
  options: StepBatchOptions,
  context: CommandContext,
): Promise<CommandOutcome<StepBatchResult>> {
  const store = await context.openStore();
  const threads = new Map<string, ThreadRecord>();
  for (const reference of options.references) {
    const record = await resolveThread(store.refs, reference);
    if (!threads.has(record.id)) threads.set(record.id, record);
  }
  const spent = new Map<string, Usage>();
  const results = new Map<string, BatchThreadResult>();
  let stdoutClosed = false;
  let stoppedByCost = false;
  const stopReason = (): StopReason | null => {
    if (context.signal.aborted) return "interrupted";
    if (options.maxCostUsd !== undefined && sumUsage(spent.values()).costUsd >= options.maxCostUsd) {
      stoppedByCost = true;
      return "batch-max-cost";
    }
    return null;
  };

  // One status line cannot show many agents: it counts the batch's threads instead (on a terminal only).
  const counts = { running: 0, queued: threads.size, done: 0, failed: 0 };
  const startedAt = Date.now();
  const showCounts = () => context.progress({ batch: { ...counts }, startedAt });

  const stepUntilDone = async (initial: ThreadRecord): Promise<BatchThreadResult> => {
    const threadContext: CommandContext = {
      ...context,
      progress: () => {},
      // A step's line takes the status line's place; the counts come back under it.
      emit: async (event) => {
        await context.emit(event, { showThread: true });
        showCounts();
      },
      warn: (message) => context.warn(`thread ${initial.id}: ${message}`),
    };
    const steps: StepSummary[] = [];
    let record = initial;
    let failure: unknown;
    let stopped: StopReason | null = null;
    for (let index = 0; index < options.limit && !stdoutClosed; index++) {
      stopped = stopReason();
      if (stopped !== null) break;
      // A parent waiting for its branches steps them `--parallel` at a time: with `--all`, until it joins.
      const waiting = record.status === "waiting";
      try {
        const outcome = await stepOneThreadCommand(
          {
            thread: initial.id,
            steps: 1,
            ...(waiting && options.limit === Number.POSITIVE_INFINITY ? { all: true } : {}),
            agent: options.agent,
            timeout: options.timeout,
            parallel: options.parallel,
          },
          threadContext,
        );
        steps.push(...outcome.result.steps);
        failure = outcome.error;
      } catch (error) {
        // A reader that went away gets nothing more: no thread starts another step, and the command exits 141.
        if (isUwfError(error) && error.code === StdoutClosedError.code) {
          stdoutClosed = true;
          throw error;
        }
        failure = error;
      }
      record = (await store.refs.getThread(initial.id)) ?? record;
      spent.set(initial.id, usageSince(initial.usage, record.usage));
      if (failure !== undefined) break;
      // A step that fanned out goes on with the branches; a parent still waiting after its branches were
      // stepped could step no more of them here (they wait for answers, or run elsewhere).
      if (record.status !== "active" && !(record.status === "waiting" && !waiting)) break;
    }
    if (stopped !== null) {
      await threadContext.emit({ type: "thread-stopped", thread: record.id, head: record.head, reason: stopped });
    }
    const { outcome, exitCode } = judge(record, failure, stopped, context.signal);
    if (failure !== undefined && outcome !== "already-ended" && outcome !== "suspended") {
      const { describeError } = await import("../../../describe-error.ts");
      context.note(`uwf: thread ${record.id}: ${describeError(failure).message}`);
    }
    const { outcome: threadOutcome, ...reported } = await toStepResult(recordView(record), steps, failure);
    return {
      ...reported,
      ...(threadOutcome === undefined ? {} : { threadOutcome }),
      outcome,
      exitCode,
      usage: spent.get(record.id) ?? ZERO_USAGE,
    };
  };

  showCounts();
  await forEachConcurrently([...threads.values()], options.parallel, async (initial) => {
    counts.queued--;
    counts.running++;
    showCounts();
    const result = await stepUntilDone(initial);
    results.set(initial.id, result);
    counts.running--;
    if (result.outcome === "failed") counts.failed++;
    else counts.done++;
    showCounts();
  });
  context.progress(null);
  const ordered = [...threads.keys()].map((id) => results.get(id) as BatchThreadResult);
  const result: StepBatchResult = {
    threads: ordered,
    usage: sumUsage(ordered.map((thread) => thread.usage)),
    maxCostUsd: options.maxCostUsd ?? null,
    stoppedBy: context.signal.aborted ? "interrupted" : stoppedByCost ? "batch-max-cost" : null,
    exitCode: mostSevereExitCode(ordered.map((thread) => thread.exitCode)),
  };
  return { result, format: formatStepBatchResult, exitCode: result.exitCode, streamed: true };
}

/** A failed thread's outcome by its error's exit code; any other is `failed`. */
const OUTCOME_BY_EXIT_CODE: Readonly<Partial<Record<number, BatchThreadOutcome>>> = {
  [EXIT_ENDED]: "already-ended",
  [EXIT_SUSPENDED]: "suspended",
  [EXIT_BUSY]: "busy",
  [EXIT_INTERRUPTED]: "interrupted",
  [EXIT_HANGUP]: "interrupted",
};

/** How a thread came out of the batch, and the exit code it counts as. */
function judge(
  record: ThreadRecord,
  failure: unknown,
  stopped: StopReason | null,
  signal: AbortSignal,
): { outcome: BatchThreadOutcome; exitCode: number } {
  if (failure !== undefined) {
    const exitCode = isUwfError(failure) ? exitCodeForError(failure.code) : EXIT_FAILED;
    const cancelled = isUwfError(failure) && failure.code === ThreadCancelledError.code;
    const outcome = cancelled ? "cancelled" : (OUTCOME_BY_EXIT_CODE[exitCode] ?? "failed");
    // A thread that had ended before the batch is done, as one that ends in it: `&&` goes on.
    return { outcome, exitCode: outcome === "already-ended" ? EXIT_OK : exitCode };
  }
  if (stopped === "interrupted") {
    return { outcome: "interrupted", exitCode: signal.reason === "SIGHUP" ? EXIT_HANGUP : EXIT_INTERRUPTED };
  }
  if (stopped === "batch-max-cost") return { outcome: "stopped", exitCode: EXIT_SUSPENDED };
  if (record.status === "suspended") return { outcome: "suspended", exitCode: EXIT_SUSPENDED };
  if (record.status === "cancelled") return { outcome: "cancelled", exitCode: EXIT_FAILED };
  // A parent waiting for its branches goes on as an active thread does (its next step steps them): exit 0.
  return { outcome: record.status, exitCode: EXIT_OK };
}

function sumUsage(usages: Iterable<Usage>): Usage {
  let total = ZERO_USAGE;
  for (const usage of usages) total = addUsage(total, usage);
  return total;
}

/** What a thread's record says it used between two readings of it. */
function usageSince(before: Usage, after: Usage): Usage {
  return {
    inputTokens: after.inputTokens - before.inputTokens,
    outputTokens: after.outputTokens - before.outputTokens,
    cacheReadTokens: after.cacheReadTokens - before.cacheReadTokens,
    cacheWriteTokens: after.cacheWriteTokens - before.cacheWriteTokens,
    // Micro-dollars, as addUsage rounds, so a difference does not show float noise.
    costUsd: Math.round((after.costUsd - before.costUsd) * 1e6) / 1e6,
  };
}
