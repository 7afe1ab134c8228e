import { rescoreEvalReport, resolveEvalReport } from "@uwf/eval";
import type { EvalResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import { type EvalOutputOptions, type EvaluateFlags, scoreAndShow } from "./eval-output.ts";

export interface EvalRescoreCommandOptions extends EvaluateFlags, EvalOutputOptions {
  report: string;
  /** Score only the `--assert` given, dropping the report's own assertions. */
  replace?: boolean;
}

/**
 * `uwf eval rescore REPORT --assert …`: the same threads, at the heads the report scored, judged again
 * with its assertions and the new ones (or only the new ones, `--replace`); nothing is run but judges.
 */
export async function evalRescoreCommand(
  options: EvalRescoreCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<EvalResult>> {
  return scoreAndShow(options, context, async (evaluation) => {
    const previous = await resolveEvalReport(evaluation.store, options.report);
    return rescoreEvalReport(previous, { ...evaluation, replace: options.replace === true });
  });
}
