import type { CommandContext } from "../../context.ts";
import { startCommand } from "./start.ts";
import { stepCommand } from "./step.ts";

export interface RunCommandOptions {
  workflow: string;
  prompt?: string;
  promptFile?: string;
  cwd?: string;
  input?: string[];
  inputs?: string;
  maxSteps?: number;
  agent?: string;
  timeout?: number;
}

/** `start` then `step --all` (or up to `--max-steps`); prints what `step` prints. */
export async function runCommand(options: RunCommandOptions, context: CommandContext) {
  const { thread } = (await startCommand(options, context)).result;
  context.note(`thread ${thread}`);
  return stepCommand(
    {
      thread,
      all: options.maxSteps === undefined,
      steps: options.maxSteps,
      agent: options.agent,
      timeout: options.timeout,
    },
    context,
  );
}
