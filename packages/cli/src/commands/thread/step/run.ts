import { runThreadToEnd } from "@uwf/engine";
import { InternalError, type RunResult, type StepResult } from "@uwf/protocol";
import { UsageError } from "../../../errors/usage-error.ts";
import { formatRunTotals } from "../../../format/runs/format-run-totals.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";
import { type StartCommandOptions, startCommand } from "../start/start.ts";
import { checkAgentFlag } from "./check-agent-flag.ts";
import { stepOneThreadCommand } from "./step-one-thread.ts";
import { prepareStepRound, reportStepRound, type StepCommandOptions } from "./step-round.ts";

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
  const outcome = await runToEnd({ thread, agent: options.agent, timeout: options.timeout }, context);
  if ("steps" in outcome.result) context.note(formatRunTotals(outcome.result.steps, Date.now() - startedAt));
  return outcome;
}

/**
 * `step --all` by the engine's one loop (runThreadToEnd), each round reported as `uwf step` reports its
 * steps. With `--agent scripted:FILE`, a suspension — the thread's, or a branch's it waits on — or an end
 * whose scenario entry records the answer that resumed it (`answer:`, as `uwf scenario export` writes it and
 * the examples' scenarios note it) is resumed with that answer, as the recorded thread was, and the run goes
 * on: one command plays the whole thread (findRecordedResume, the rule `uwf eval --suite` follows too). A
 * resumed branch that fails ends the run with its error. The result is the last round's, with the steps
 * of every round of the thread's own. Without a recorded answer the run stops as any other does.
 */
async function runToEnd(options: StepCommandOptions, context: CommandContext): Promise<CommandOutcome<RunResult>> {
  // The thread a round steps: the run's own, or the branch a recorded answer resumes.
  let roundThread: string | null = null;
  const { id, step, flushHeld } = await prepareStepRound(options, context, () => roundThread ?? id);
  let last: CommandOutcome<StepResult> | null = null;
  const done = await runThreadToEnd({
    ...step,
    baseDir: context.cwd,
    stopWhenABranchFails: true,
    onRecordedResume: (thread, number) => {
      const where = thread === id ? "" : ` of branch ${thread}`;
      context.note(`resuming with the answer the scenario records for step ${number}${where}`);
      roundThread = thread;
    },
    onRound: async (_thread, round) => {
      last = await reportStepRound(round, context, flushHeld);
      roundThread = null;
    },
  });
  const outcome = last as CommandOutcome<StepResult> | null;
  if (outcome === null) throw new InternalError("uwf run: the engine reported no round of steps");
  outcome.result.steps = done.steps;
  return outcome;
}
