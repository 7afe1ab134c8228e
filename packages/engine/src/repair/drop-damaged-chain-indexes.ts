import type { Store } from "@uwf/cas";
import { findChainIndexProblems } from "./find-chain-index-problems.ts";

export interface DropDamagedChainIndexesOptions {
  /** Name them without dropping them. */
  dryRun?: boolean;
}

/**
 * Drops every chain index that disagrees with the chain it names (findChainIndexProblems) and
 * returns the ids of their threads, in thread order. An index is derived data: the thread's next
 * step rebuilds it, and until then readers walk the chain. `uwf cas gc` runs it.
 */
export async function dropDamagedChainIndexes(
  store: Pick<Store, "objects" | "refs">,
  options: DropDamagedChainIndexesOptions = {},
): Promise<string[]> {
  const dropped: string[] = [];
  for (const { threadId } of await findChainIndexProblems(store)) {
    if (options.dryRun !== true) await store.refs.forgetChainIndex(threadId);
    dropped.push(threadId);
  }
  return dropped;
}
