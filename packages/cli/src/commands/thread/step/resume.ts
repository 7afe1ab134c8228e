import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { checkResumeAnswer, isAnswerable, requeueFailedThread, resolveThread, toShownThread } from "@uwf/engine";
import { isUwfError, type ResumeResult, type ShownThread } from "@uwf/protocol";
import { UsageError } from "../../../errors/usage-error.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";
import { readInputFile } from "../../../read-input-file.ts";
import { type BudgetFlags, limitsFromFlags } from "../start/limits-from-flags.ts";
import { promptReadsStdin, readPrompt } from "../start/read-prompt.ts";
import { stepOneThreadCommand } from "./step-one-thread.ts";

export interface ResumeCommandOptions extends BudgetFlags {
  thread: string;
  /** `-p ANSWER`, or `-p -` for stdin. */
  prompt?: string;
  /** `--prompt-file FILE` (`-` for stdin). */
  promptFile?: string;
  /** `--answer FILE|-|INLINE`: the fields a role with `answer:` needs, as YAML or JSON. */
  answer?: string;
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
  const texted = options.prompt !== undefined || options.promptFile !== undefined;
  const answered = texted || options.answer !== undefined;
  if (options.queue === true) return requeue(options, answered, context);
  const resumeFailed = !answered && resumeLimits === undefined && (await isFailed(options.thread, context));
  if (!answered && resumeLimits === undefined && !resumeFailed) {
    // A role that declares `answer:` says which fields it needs.
    await checkNeededAnswer(options.thread, context);
    throw new UsageError(
      "the prompt is missing: -p TEXT, -p - (stdin) or --prompt-file FILE; a thread its budget suspended takes a raised limit instead (--max-steps, --max-tokens, --max-cost)",
    );
  }
  if (options.answer === "-" && promptReadsStdin(options))
    throw new UsageError("only one of -p/--prompt-file and --answer can read stdin");
  const resumeAnswer = texted ? await readPrompt({ ...options, cwd: context.cwd }) : undefined;
  const typedAnswer = options.answer === undefined ? undefined : await readAnswer(options.answer, context.cwd);
  return stepOneThreadCommand(
    {
      thread: options.thread,
      resumeAnswer,
      resumeTypedAnswer: typedAnswer,
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
 * `--answer`'s text: `-` reads stdin, the name of an existing file reads that file, anything else is
 * the answer itself (YAML or JSON). The engine parses and checks it against the role's schema.
 */
async function readAnswer(answer: string, cwd: string): Promise<string> {
  if (answer === "-") return readInputFile("-", { cwd, label: "--answer -" });
  const path = resolve(cwd, answer);
  const isFile = !/[\n{:]/.test(answer) && existsSync(path) && !statSync(path).isDirectory();
  return isFile ? readInputFile(answer, { cwd, label: `--answer ${answer}` }) : answer;
}

/** A resume with nothing to a thread whose role declares `answer:`: the refusal names the fields it needs. */
async function checkNeededAnswer(reference: string, context: CommandContext): Promise<void> {
  const store = await context.openStore({ create: false });
  let record: Awaited<ReturnType<typeof resolveThread>>;
  try {
    record = await resolveThread(store.refs, reference);
  } catch {
    return;
  }
  if (isAnswerable(record)) await checkResumeAnswer(store, record.id, {});
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
