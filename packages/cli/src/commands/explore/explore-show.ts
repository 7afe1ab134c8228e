import { resolveExploreReport } from "@uwf/eval";
import type { ExploreResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import { exploreOutcome } from "./explore-output.ts";

export interface ExploreShowCommandOptions {
  report: string;
  html?: string;
  allowErrors?: boolean;
  /** For the web UI: the report as it is, with no error for errored re-runs or a gate that did not hold. */
  showOnly?: boolean;
}

/** `uwf explore show REPORT`: a stored exploration as it was scored, with its gate's exit code. */
export async function exploreShowCommand(
  options: ExploreShowCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<ExploreResult>> {
  const store = await context.openStore({ create: false });
  const outcome = exploreOutcome(await resolveExploreReport(store, options.report), options, context);
  return options.showOnly === true ? { ...outcome, error: undefined } : outcome;
}
