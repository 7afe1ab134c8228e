import type { ChainStepDetails, Store } from "@uwf/cas";
import type { Address } from "@uwf/protocol";
import type { ChainStep } from "./read-chain.ts";

/**
 * The steps' details a thread's chain index keeps, by step address; empty when it has none or cannot
 * be read. A step's details are facts of its immutable nodes, so they hold in any chain that has the
 * step, whatever its index ends at: a fork takes its parent's, a rewritten index its own old ones.
 */
export async function recallChainDetails(
  store: Pick<Store, "refs">,
  threadId: string,
): Promise<Map<Address, ChainStepDetails>> {
  const byAddress = new Map<Address, ChainStepDetails>();
  const index = await store.refs.recallChainIndex(threadId, { details: true }).catch(() => null);
  for (const step of index?.steps ?? []) if (step.details !== undefined) byAddress.set(step.address, step.details);
  return byAddress;
}

/** The steps, each with its details from `byAddress` where it has none of its own. */
export function withChainDetails(
  steps: readonly ChainStep[],
  byAddress: ReadonlyMap<Address, ChainStepDetails>,
): ChainStep[] {
  return steps.map((step) => {
    const details = step.details ?? byAddress.get(step.address);
    return details === undefined ? step : { ...step, details };
  });
}
