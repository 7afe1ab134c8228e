import type { CommandContext } from "../../context.ts";
import { stepCommand } from "./step.ts";

export interface ResumeCommandOptions {
  thread: string;
  prompt: string;
  agent?: string;
  timeout?: number;
}

/** Answers a suspended thread (its role runs again with the reason and the answer), or continues an ended one. */
export async function resumeCommand(options: ResumeCommandOptions, context: CommandContext) {
  return stepCommand(
    { thread: options.thread, resumeAnswer: options.prompt, agent: options.agent, timeout: options.timeout },
    context,
  );
}
