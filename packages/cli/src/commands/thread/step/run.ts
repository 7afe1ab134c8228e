import { findRecordedResume } from "@uwf/engine";
import type { RunResult } from "@uwf/protocol";
import { UsageError } from "../../../errors/usage-error.ts";
import { formatRunTotals } from "../../../format/runs/format-run-totals.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";
import { type StartCommandOptions, startCommand } from "../start/start.ts";
import { checkAgentFlag } from "./check-agent-flag.ts";
import { resolveAgentFlag } from "./resolve-agent-flag.ts";
import { type StepCommandOptions, stepOneThreadCommand } from "./step-one-thread.ts";

/** `start`'s flags (`--queue` only starts the thread, for `uwf worker`), and the steps' agent and time limit. */
export interface RunCommandOptions extends StartCommandOptions {
  agent?: string;
  timeout?: number;
  /** No flag: the web UI's start with one step (`"step": "one"`) runs this many steps instead of `--all`. */
  steps?: number;
}

/**
 * `start` (with its budget flags: `--max-steps N` is the thread's step limit) then `step --all`, which
 * stops when the thread ends, suspends, or reaches a limit; prints what `step` prints (with a scripted
 * scenario's recorded answers, suspensions are answered and the run goes on). With `--queue`,
 * only `start --queue`: a worker steps the thread, and `uwf wait` waits for it.
 */
export async function runCommand(
  options: RunCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<RunResult>> {
  if (options.queue === true) {
    if (options.agent !== undefined || options.timeout !== undefined) {
      throw new UsageError("--queue leaves the thread to a worker: give --agent and --timeout to `uwf worker`");
    }
    return startCommand(options, context);
  }
  // A mistyped --agent is refused before a thread is started.
  checkAgentFlag(options.agent, await context.loadConfig());
  const startedAt = Date.now();
  const { thread } = (await startCommand(options, context)).result;
  context.note(`thread ${thread}`);
  if (options.steps !== undefined) {
    return stepOneThreadCommand(
      { thread, steps: options.steps, agent: options.agent, timeout: options.timeout },
      context,
    );
  }
  const step = { thread, all: true, agent: options.agent, timeout: options.timeout };
  const outcome = await playRecordedAnswers(await stepOneThreadCommand(step, context), step, context);
  if ("steps" in outcome.result) context.note(formatRunTotals(outcome.result.steps, Date.now() - startedAt));
  return outcome;
}

/**
 * With `--agent scripted:FILE`, a suspension — the thread's, or a branch's it waits on — or an end whose
 * scenario entry records the answer that resumed it (`answer:`, as `uwf scenario export` writes it and
 * the examples' scenarios note it) is resumed with that answer, as the recorded thread was, and the run
 * goes on: one command plays the whole thread (findRecordedResume, the rule `uwf eval --suite` follows
 * too). The steps of every round are reported together. Without a recorded answer the run stops as any
 * other does.
 */
async function playRecordedAnswers(
  first: Awaited<ReturnType<typeof stepOneThreadCommand>>,
  step: StepCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<RunResult>> {
  const agent = resolveAgentFlag(step.agent, context.cwd);
  let outcome = first;
  const steps = [...first.result.steps];
  while (outcome.error === undefined) {
    const store = await context.openStore();
    const record = await store.refs.getThread(step.thread);
    if (record === null) break;
    const found = await findRecordedResume(store, record, { agent, baseDir: context.cwd });
    if (found === null) break;
    const where = found.thread === step.thread ? "" : ` of branch ${found.thread}`;
    context.note(`resuming with the answer the scenario records for step ${found.step}${where}`);
    const { answer, typedAnswer } = found.resume;
    const resumed = await stepOneThreadCommand(
      {
        ...step,
        thread: found.thread,
        ...(typedAnswer === undefined
          ? { resumeAnswer: answer }
          : { resumeTypedAnswer: typeof typedAnswer === "string" ? typedAnswer : JSON.stringify(typedAnswer) }),
      },
      context,
    );
    if (found.thread === step.thread) {
      outcome = resumed;
      steps.push(...outcome.result.steps);
      continue;
    }
    // The branch went on (its parent settled as it ended): the parent goes on from where it stands.
    if (resumed.error !== undefined) {
      outcome = resumed;
      break;
    }
    outcome = await stepOneThreadCommand(step, context);
    steps.push(...outcome.result.steps);
    if (resumed.result.steps.length === 0 && outcome.result.steps.length === 0) break;
  }
  if (outcome === first) return first;
  outcome.result.steps = steps;
  return outcome;
}
