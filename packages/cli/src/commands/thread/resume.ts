import type { CommandContext } from "../../context.ts";
import { readPrompt } from "./read-prompt.ts";
import { stepCommand } from "./step.ts";

export interface ResumeCommandOptions {
  thread: string;
  /** `-p ANSWER`, or `-p -` for stdin. */
  prompt?: string;
  /** `--prompt-file FILE` (`-` for stdin). */
  promptFile?: string;
  agent?: string;
  timeout?: number;
}

/** Answers a suspended thread (its role runs again with the reason and the answer), or continues an ended one. */
export async function resumeCommand(options: ResumeCommandOptions, context: CommandContext) {
  const resumeAnswer = await readPrompt({ ...options, cwd: context.cwd });
  return stepCommand({ thread: options.thread, resumeAnswer, agent: options.agent, timeout: options.timeout }, context);
}
