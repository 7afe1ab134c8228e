import { GcRefusedError, gcStore } from "@uwf/cas";
import { dropDamagedChainIndexes, findUnrecordedHeads } from "@uwf/engine";
import type { GcReport } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";

export interface CasGcOptions {
  dryRun?: boolean;
  grace?: number;
  force?: boolean;
}

/**
 * The least grace period gc uses, whatever `--grace` says: the step lease lifetime (60 s). Steps in
 * flight are spared through their leases however small the grace (gcStore); this covers the commands
 * that write nodes and link them without a lease (`start`, `fork`, `workflow add`), which take far
 * less time than this between the two.
 */
export const MINIMUM_GRACE_SECONDS = 60;

/**
 * Deletes objects unreachable from thread heads and the registry, sparing recent writes and steps in
 * flight. Refuses, deleting nothing, while a head that no record holds exists (findUnrecordedHeads: a
 * ref store older than the object store, or lost threads), unless `--force`: `uwf cas recover` records
 * those first. Heads of deleted threads and steps their threads went on without are collected.
 */
export async function casGcCommand(options: CasGcOptions, context: CommandContext) {
  const store = await context.openStore();
  const grace = options.grace ?? 3600;
  const graceSeconds = Math.max(grace, MINIMUM_GRACE_SECONDS);
  if (grace < MINIMUM_GRACE_SECONDS) {
    context.note(`--grace ${grace}: gc keeps every object written in the last ${MINIMUM_GRACE_SECONDS} seconds`);
  }
  const dryRun = options.dryRun === true;
  const force = options.force === true;
  if (!force) {
    const { heads, unrecordedSteps } = await findUnrecordedHeads(store, { now: context.now(), host: context.host });
    // A head every step of which another record holds (a thread's record set back while a fork holds its
    // later steps) loses nothing to gc: verify reports it, and the thread's steps refuse until recover.
    const stepHeads = heads.filter((head) => head.steps > 0 && head.unrecorded > 0);
    if (stepHeads.length > 0) throw GcRefusedError.unrecordedHeads(stepHeads.length, unrecordedSteps);
  }
  const report: GcReport = {
    ...(await gcStore(store, { dryRun, force, graceMs: graceSeconds * 1000, now: context.now(), host: context.host })),
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
