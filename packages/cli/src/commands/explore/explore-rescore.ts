import { rescoreExploreReport, resolveExploreReport } from "@uwf/eval";
import type { ExploreResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import { evaluateOptionsOf } from "../eval/eval-output.ts";
import { exploreOutcome } from "./explore-output.ts";

export interface ExploreRescoreCommandOptions {
  report: string;
  assert?: string[];
  /** Score only the `--assert` given, dropping the report's own assertions. */
  replace?: boolean;
  agent?: string;
  timeout?: number;
  name?: string;
  minPassRate?: number;
  allowErrors?: boolean;
  html?: string;
}

/**
 * `uwf explore rescore REPORT --assert …`: the same re-runs, at the heads the exploration scored, judged
 * again; nothing is re-run but judges. A new report is stored.
 */
export async function exploreRescoreCommand(
  options: ExploreRescoreCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<ExploreResult>> {
  const evaluation = await evaluateOptionsOf(options, context);
  const previous = await resolveExploreReport(evaluation.store, options.report);
  const stored = await rescoreExploreReport(previous, {
    ...evaluation,
    replace: options.replace === true,
    gate: options.minPassRate === undefined ? null : { minPassRate: options.minPassRate },
  });
  return exploreOutcome(stored, options, context);
}
