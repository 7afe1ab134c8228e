import { compareFamily, resolveNodeOrThread } from "@uwf/engine";
import { COMPARE_SORT_KEYS, type CompareResult, isCompareSortKey } from "@uwf/protocol";
import { UsageError } from "../../../errors/usage-error.ts";
import { formatCompare } from "../../../format/experiments/format-compare.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";
import { stdoutColumns } from "../../../terminal/standard-streams.ts";
import { trace } from "../../../trace.ts";

trace("compare command loaded");

export interface CompareCommandOptions {
  /** A thread (id or prefix), or a step or start node (address or prefix): its forks are compared. */
  reference: string;
  /** Only the original's own forks (or, for a node, the forks made at it), not theirs. */
  direct?: boolean;
  /** Order the forks by this column (the original stays first). */
  sort?: string;
  /** Every column, however wide the terminal. */
  wide?: boolean;
}

/** One row per member of a fork family: outcome, own steps, cost, duration and where it parts from the original. */
export async function compareCommand(
  options: CompareCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<CompareResult>> {
  const sort = options.sort;
  if (sort !== undefined && !isCompareSortKey(sort)) {
    throw new UsageError(`--sort ${sort}: expected one of ${COMPARE_SORT_KEYS.join(", ")}`);
  }
  const store = await context.openStore({ create: false });
  const target = await resolveNodeOrThread(store, options.reference);
  trace("reference resolved");
  const result = await compareFamily(store, target, options.reference, {
    direct: options.direct === true,
    ...(sort === undefined ? {} : { sort }),
    trace,
  });
  const forks = result.rows.length - (result.original === null ? 0 : 1);
  return {
    result,
    format: (value, color) =>
      formatCompare(value, color, { width: options.wide === true ? undefined : stdoutColumns(context.env) }),
    hint:
      result.rows.length > 0 && forks === 0
        ? `no fork ${result.at === null ? "of it" : "was made at it"} to compare with; make some with \`uwf fork\``
        : undefined,
  };
}
