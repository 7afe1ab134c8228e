import type { RunResult } from "@uwf/protocol";
import { UsageError } from "../../errors/usage-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import { type StartCommandOptions, startCommand } from "./start.ts";
import { stepCommand } from "./step.ts";

/** `start`'s flags (`--queue` only starts the thread, for `uwf worker`), and the steps' agent and time limit. */
export interface RunCommandOptions extends StartCommandOptions {
  agent?: string;
  timeout?: number;
}

/**
 * `start` (with its budget flags: `--max-steps N` is the thread's step limit) then `step --all`, which
 * stops when the thread ends, suspends, or reaches a limit; prints what `step` prints. With `--queue`,
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
  const { thread } = (await startCommand(options, context)).result;
  context.note(`thread ${thread}`);
  return stepCommand({ thread, all: true, agent: options.agent, timeout: options.timeout }, context);
}
