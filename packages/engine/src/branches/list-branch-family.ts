import type { Store } from "@uwf/cas";

/**
 * Every branch thread below a thread — its branches, theirs, and so on through nested fan-outs — deepest
 * first, so a caller removing them goes from the leaves up and never leaves a branch whose parent is gone.
 * Reads only branch links.
 */
export async function listBranchFamily(store: Pick<Store, "refs">, threadId: string): Promise<string[]> {
  const found: string[] = [];
  const seen = new Set([threadId]);
  const visit = async (parent: string) => {
    for (const link of await store.refs.listBranches(parent)) {
      if (seen.has(link.thread)) continue;
      seen.add(link.thread);
      await visit(link.thread);
      found.push(link.thread);
    }
  };
  await visit(threadId);
  return found;
}
