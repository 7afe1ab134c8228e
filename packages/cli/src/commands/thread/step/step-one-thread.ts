import { stepUntilDone } from "@uwf/engine";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import { prepareStepRound, reportStepRound, type StepCommandOptions } from "./step-round.ts";

export type { StepCommandOptions } from "./step-round.ts";

/**
 * Runs up to N steps (stepUntilDone); stops early when the thread ends or suspends (by a role, or for its budget). Each step is emitted as it
 * starts and as it is recorded, so its line is printed then. A step that fails ends the command with
 * the steps recorded before it still in the result, beside the error.
 */
export async function stepOneThreadCommand(options: StepCommandOptions, context: CommandContext) {
  const { step, flushHeld } = await prepareStepRound(options, context);
  const done = await stepUntilDone({
    ...step,
    maxSteps: options.all === true ? Number.POSITIVE_INFINITY : (options.steps ?? 1),
  });
  return reportStepRound(done, context, flushHeld);
}
