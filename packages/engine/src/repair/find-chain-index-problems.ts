import { type ChainIndex, CorruptNodeError, NodeNotFoundError, type Store } from "@uwf/cas";
import { type Address, nodeKind, type ThreadStepNode } from "@uwf/protocol";

/** A thread's chain index that disagrees with the chain it names; `address` is its first wrong step. */
export interface ChainIndexProblem {
  threadId: string;
  address: Address;
  message: string;
}

/**
 * Reads the step nodes every chain index names and checks that they are one chain, step by step:
 * each a stored step node with the index's role, the index's start, and the step before it as
 * `prev`. A step on a long thread trusts its index for every step but the head (that is what
 * saves it reading them), so an index damaged in the middle would go unnoticed there; this is
 * where it is noticed. An unreadable index is not reported: readers already treat it as none. An
 * index is derived data: dropping it (dropDamagedChainIndexes) is the repair, and the thread's next
 * step rebuilds it.
 */
export async function findChainIndexProblems(store: Pick<Store, "objects" | "refs">): Promise<ChainIndexProblem[]> {
  const problems: ChainIndexProblem[] = [];
  for await (const threadId of store.refs.listChainIndexedThreads()) {
    const index = await store.refs.recallChainIndex(threadId);
    if (index === null) continue;
    const disagreement = await firstDisagreement(store, index);
    if (disagreement !== null) {
      problems.push({
        threadId,
        address: disagreement.address,
        message: `thread ${threadId}'s chain index ${disagreement.message}`,
      });
    }
  }
  return problems;
}

async function firstDisagreement(
  store: Pick<Store, "objects">,
  index: ChainIndex,
): Promise<{ address: Address; message: string } | null> {
  let previous: Address | null = null;
  for (let position = 0; position < index.steps.length; position++) {
    const { address, role } = index.steps[position] as ChainIndex["steps"][number];
    const says = `says step ${position + 1} is ${address}`;
    let node: unknown;
    try {
      node = await store.objects.get(address);
    } catch (error) {
      if (error instanceof NodeNotFoundError) return { address, message: `${says}, which is not in the store` };
      if (error instanceof CorruptNodeError) return { address, message: `${says}, which is corrupt` };
      throw error;
    }
    const kind = nodeKind(node);
    if (kind !== "thread-step/1") return { address, message: `${says}, which is a ${kind ?? "untyped"} node` };
    const step = node as ThreadStepNode;
    if (step.start !== index.start) {
      return { address, message: `${says}, which belongs to the thread started by ${step.start}, not ${index.start}` };
    }
    if (step.prev !== previous) {
      const expected = previous === null ? "the first step" : `the step after ${previous}`;
      return { address, message: `${says}, which is not ${expected}` };
    }
    if (step.role !== role) {
      return { address, message: `${says} with role "${role}", but that step ran role "${step.role}"` };
    }
    previous = address;
  }
  return null;
}
