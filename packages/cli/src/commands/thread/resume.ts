import { requeueFailedThread, resolveThread } from "@uwf/engine";
import { isUwfError, type ResumeResult, type ShownThread } from "@uwf/protocol";
import { UsageError } from "../../errors/usage-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import { type BudgetFlags, limitsFromFlags } from "./limits-from-flags.ts";
import { readPrompt } from "./read-prompt.ts";
import { stepCommand } from "./step.ts";
import { toShownThread } from "./to-shown-thread.ts";

export interface ResumeCommandOptions extends BudgetFlags {
  thread: string;
  /** `-p ANSWER`, or `-p -` for stdin. */
  prompt?: string;
  /** `--prompt-file FILE` (`-` for stdin). */
  promptFile?: string;
  agent?: string;
  timeout?: number;
  /** A failed thread goes back to the queue for workers instead of being stepped here. */
  queue?: boolean;
  /** Step on after the resumed step until the thread ends or suspends, as `run` does. */
  all?: boolean;
}

/**
 * Answers a suspended thread (its role runs again with the reason and the answer), continues an ended
 * one, or — with `--max-…` and no answer — raises the limits of a thread its budget suspended and takes
 * its next step. Limits given beside an answer are raised too. A thread a worker set `failed` takes
 * neither: it is made active again and its step tried here, or with `--queue` left to a worker.
 */
export async function resumeCommand(
  options: ResumeCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<ResumeResult>> {
  const resumeLimits = limitsFromFlags(options);
  const answered = options.prompt !== undefined || options.promptFile !== undefined;
  if (options.queue === true) return requeue(options, answered, context);
  const resumeFailed = !answered && resumeLimits === undefined && (await isFailed(options.thread, context));
  if (!answered && resumeLimits === undefined && !resumeFailed) {
    throw new UsageError(
      "the prompt is missing: -p TEXT, -p - (stdin) or --prompt-file FILE; a thread its budget suspended takes a raised limit instead (--max-steps, --max-tokens, --max-cost)",
    );
  }
  const resumeAnswer = answered ? await readPrompt({ ...options, cwd: context.cwd }) : undefined;
  return stepCommand(
    {
      thread: options.thread,
      resumeAnswer,
      resumeLimits,
      resumeFailed,
      all: options.all,
      agent: options.agent,
      timeout: options.timeout,
    },
    context,
  );
}

/**
 * Whether the thread a resume without an answer or limits names is one a worker set `failed`, which
 * needs neither. A thread that is not there is not failed: the missing prompt is what to report.
 */
async function isFailed(reference: string, context: CommandContext): Promise<boolean> {
  const store = await context.openStore({ create: false });
  try {
    return (await resolveThread(store.refs, reference)).status === "failed";
  } catch (error) {
    if (isUwfError(error) && (error.code === "thread-not-found" || error.code === "ambiguous-thread")) return false;
    throw error;
  }
}

/** `uwf resume T --queue`: a failed thread active again and queued, for the next worker to claim. */
async function requeue(
  options: ResumeCommandOptions,
  answered: boolean,
  context: CommandContext,
): Promise<CommandOutcome<ShownThread>> {
  if (answered || options.agent !== undefined || options.timeout !== undefined || options.all === true) {
    throw new UsageError(
      "--queue puts a failed thread back for a worker, so it takes no answer, --all, --agent or --timeout (give those to `uwf worker`)",
    );
  }
  const store = await context.openStore();
  const found = await resolveThread(store.refs, options.thread);
  const { requeued, record } = await requeueFailedThread({
    store,
    threadId: found.id,
    limits: limitsFromFlags(options),
    host: context.host,
    now: context.now,
  });
  if (!requeued) {
    throw new UsageError(
      `thread ${record.id} is ${record.status}, not failed: --queue puts back only a thread a worker gave up on`,
      { thread: record.id, status: record.status },
    );
  }
  const result = toShownThread(record);
  return { result, format: (value) => `thread ${value.id} is active again and queued for a worker` };
}
