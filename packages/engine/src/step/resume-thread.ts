import { type Resume, type StepThreadOptions, type StepThreadOutcome, stepThread } from "./step-thread.ts";

export interface ResumeThreadOptions extends Omit<StepThreadOptions, "resume">, Resume {}

/**
 * One step that resumes a thread: answers the role that suspended it (which runs again with its
 * reason and the answer), continues an ended thread with a prompt (its workflow's `$START` resume
 * edge), or lifts a suspension for the budget with raised `limits` and no answer. Limits given
 * beside an answer are raised too. An active thread is refused (ThreadNotResumableError), and so is
 * a resume that brought the wrong thing for where the thread stands (ResumeMismatchError), or one
 * whose step would start at or over a limit (BudgetExceededError); nothing is run or changed then.
 */
export function resumeThread(options: ResumeThreadOptions): Promise<StepThreadOutcome> {
  const { answer, limits, ...step } = options;
  return stepThread({ ...step, resume: { answer, limits } });
}
