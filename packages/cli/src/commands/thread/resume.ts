import type { CommandContext } from "../../context.ts";
import { UsageError } from "../../errors/usage-error.ts";
import { type BudgetFlags, limitsFromFlags } from "./limits-from-flags.ts";
import { readPrompt } from "./read-prompt.ts";
import { stepCommand } from "./step.ts";

export interface ResumeCommandOptions extends BudgetFlags {
  thread: string;
  /** `-p ANSWER`, or `-p -` for stdin. */
  prompt?: string;
  /** `--prompt-file FILE` (`-` for stdin). */
  promptFile?: string;
  agent?: string;
  timeout?: number;
}

/**
 * Answers a suspended thread (its role runs again with the reason and the answer), continues an ended
 * one, or — with `--max-…` and no answer — raises the limits of a thread its budget suspended and takes
 * its next step. Limits given beside an answer are raised too.
 */
export async function resumeCommand(options: ResumeCommandOptions, context: CommandContext) {
  const resumeLimits = limitsFromFlags(options);
  const answered = options.prompt !== undefined || options.promptFile !== undefined;
  if (!answered && resumeLimits === undefined) {
    throw new UsageError(
      "the prompt is missing: -p TEXT, -p - (stdin) or --prompt-file FILE; a thread its budget suspended takes a raised limit instead (--max-steps, --max-tokens, --max-cost)",
    );
  }
  const resumeAnswer = answered ? await readPrompt({ ...options, cwd: context.cwd }) : undefined;
  return stepCommand(
    { thread: options.thread, resumeAnswer, resumeLimits, agent: options.agent, timeout: options.timeout },
    context,
  );
}
