import { gcStore } from "@uwf/cas";
import type { CommandContext } from "../../context.ts";

export interface CasGcOptions {
  dryRun?: boolean;
  grace?: number;
}

/** Deletes objects unreachable from thread heads and the registry, sparing recent writes (a step may be in flight). */
export async function casGcCommand(options: CasGcOptions, context: CommandContext) {
  const store = await context.openStore();
  const report = await gcStore(store, {
    dryRun: options.dryRun === true,
    graceMs: (options.grace ?? 3600) * 1000,
    now: context.now(),
  });
  return {
    result: report,
    format: (value: typeof report) => {
      const dryRun = options.dryRun === true;
      const indexes = value.droppedChainIndexes.length;
      return [
        `${dryRun ? "would delete" : "deleted"} ${value.deleted.length} object(s), kept ${value.kept}`,
        ...(indexes === 0 ? [] : [`${dryRun ? "would drop" : "dropped"} ${indexes} damaged chain index(es)`]),
      ].join("\n");
    },
  };
}
