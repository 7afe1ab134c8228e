import { resolveEvalReport } from "@uwf/eval";
import type { EvalResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import { checkOutputFlags, type EvalOutputOptions, evalOutcome } from "./eval-output.ts";

export interface EvalShowCommandOptions extends EvalOutputOptions {
  report: string;
}

/** `uwf eval show REPORT`: a stored report as it was scored, with its gate's exit code. */
export async function evalShowCommand(
  options: EvalShowCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<EvalResult>> {
  checkOutputFlags(options, context);
  const store = await context.openStore({ create: false });
  return evalOutcome(await resolveEvalReport(store, options.report), options, context);
}
