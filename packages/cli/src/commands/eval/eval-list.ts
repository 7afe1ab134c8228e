import { listEvalReports, renderEvalList } from "@uwf/eval";
import type { EvalListResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";

export interface EvalListCommandOptions {
  /** Only the reports of this suite (or selection label). */
  name?: string;
  /** At most this many; 0 for all (default 30). */
  limit?: number;
  offset?: number;
}

/** `uwf eval list`: stored reports, newest first, with their sample counts and pass rates. */
export async function evalListCommand(
  options: EvalListCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<EvalListResult>> {
  const store = await context.openStore({ create: false });
  const limit = options.limit === undefined ? 30 : options.limit === 0 ? undefined : options.limit;
  const result = await listEvalReports(store, { name: options.name, limit, offset: options.offset ?? 0 });
  return { result, format: (value, color) => renderEvalList(value, { color }) };
}
