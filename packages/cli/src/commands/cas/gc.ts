import { gcStore } from "@uwf/cas";
import { dropDamagedChainIndexes } from "@uwf/engine";
import type { GcReport } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";

export interface CasGcOptions {
  dryRun?: boolean;
  grace?: number;
}

/**
 * The least grace period gc uses, whatever `--grace` says: the step lease lifetime (60 s). Steps in
 * flight are spared through their leases however small the grace (gcStore); this covers the commands
 * that write nodes and link them without a lease (`start`, `fork`, `workflow add`), which take far
 * less time than this between the two.
 */
export const MINIMUM_GRACE_SECONDS = 60;

/** Deletes objects unreachable from thread heads and the registry, sparing recent writes and steps in flight. */
export async function casGcCommand(options: CasGcOptions, context: CommandContext) {
  const store = await context.openStore();
  const grace = options.grace ?? 3600;
  const graceSeconds = Math.max(grace, MINIMUM_GRACE_SECONDS);
  if (grace < MINIMUM_GRACE_SECONDS) {
    context.note(`--grace ${grace}: gc keeps every object written in the last ${MINIMUM_GRACE_SECONDS} seconds`);
  }
  const dryRun = options.dryRun === true;
  const report: GcReport = {
    ...(await gcStore(store, { dryRun, graceMs: graceSeconds * 1000, now: context.now(), host: context.host })),
    droppedChainIndexes: await dropDamagedChainIndexes(store, { dryRun }),
  };
  return {
    result: report,
    format: (value: GcReport) => {
      const indexes = value.droppedChainIndexes.length;
      const leftovers = value.deletedTemporaryFiles.length;
      return [
        `${dryRun ? "would delete" : "deleted"} ${value.deleted.length} object(s), kept ${value.kept}`,
        ...(leftovers === 0 ? [] : [`${dryRun ? "would resolve" : "resolved"} ${leftovers} leftover file(s)`]),
        ...(indexes === 0 ? [] : [`${dryRun ? "would drop" : "dropped"} ${indexes} damaged chain index(es)`]),
      ].join("\n");
    },
  };
}
