import type { CommandContext } from "../../context.ts";
import type { BudgetFlags } from "./limits-from-flags.ts";
import { startCommand } from "./start.ts";
import { stepCommand } from "./step.ts";

export interface RunCommandOptions extends BudgetFlags {
  workflow: string;
  prompt?: string;
  promptFile?: string;
  cwd?: string;
  input?: string[];
  inputs?: string;
  agent?: string;
  timeout?: number;
}

/**
 * `start` (with its budget flags: `--max-steps N` is the thread's step limit) then `step --all`, which
 * stops when the thread ends, suspends, or reaches a limit; prints what `step` prints.
 */
export async function runCommand(options: RunCommandOptions, context: CommandContext) {
  const { thread } = (await startCommand(options, context)).result;
  context.note(`thread ${thread}`);
  return stepCommand({ thread, all: true, agent: options.agent, timeout: options.timeout }, context);
}
