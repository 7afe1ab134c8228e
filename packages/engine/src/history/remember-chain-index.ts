import type { ChainIndexStep, Store } from "@uwf/cas";
import type { Address } from "@uwf/protocol";
import { indexOfChain, type ThreadChain } from "./read-chain.ts";
import { recallChainDetails, withChainDetails } from "./recall-chain-details.ts";

/**
 * Keeps the thread's chain index for its new head, so its next step reads one row instead of
 * walking the chain: appends the new steps when the chain came from the index and the index still
 * ends at the chain's old head, and writes it whole otherwise (so a damaged index is replaced),
 * keeping the details its old index held of the steps that have none here. Called after the head
 * has moved, and never fails the command: the index is derived data, and one not kept only makes
 * the next step walk the chain (or a diff read the steps' nodes).
 */
export async function rememberChainIndex(
  store: Pick<Store, "refs">,
  threadId: string,
  chain: Pick<ThreadChain, "startAddress" | "steps" | "indexed">,
  added: readonly ChainIndexStep[] = [],
): Promise<void> {
  const oldHead: Address = chain.steps.at(-1)?.address ?? chain.startAddress;
  try {
    if (chain.indexed && added.length > 0 && (await store.refs.extendChainIndex(threadId, oldHead, added))) return;
    let { steps } = chain;
    if (steps.some((step) => step.details === undefined)) {
      steps = withChainDetails(steps, await recallChainDetails(store, threadId));
    }
    const index = indexOfChain({ startAddress: chain.startAddress, steps });
    await store.refs.rememberChainIndex(threadId, { ...index, steps: [...index.steps, ...added] });
  } catch {
    // Nothing to do: see above.
  }
}
