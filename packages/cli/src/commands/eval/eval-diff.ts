import { diffEvalReports, renderEvalDiff, resolveEvalReport } from "@uwf/eval";
import type { EvalDiffResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";

export interface EvalDiffCommandOptions {
  baseline: string;
  current: string;
}

/** `uwf eval diff R1 R2`: R2 against R1, variant by variant where both have it, and whole. */
export async function evalDiffCommand(
  options: EvalDiffCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<EvalDiffResult>> {
  const store = await context.openStore({ create: false });
  const baseline = await resolveEvalReport(store, options.baseline);
  const current = await resolveEvalReport(store, options.current);
  const result = diffEvalReports(baseline, current);
  return { result, format: (value, color) => renderEvalDiff(value, { color }) };
}
