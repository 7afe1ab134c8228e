import type { Address } from "@uwf/protocol";

/**
 * What gc must keep for a thread: its head and start, the node it was forked from and, for a branch,
 * its parent's fan-out step. A fork with a replacement output starts a new branch beside that node, so
 * the node is not on the fork's own chain, yet `show` and `fork` still name it; a `role:` branch's chain
 * goes through its fan-out step anyway, a `workflow:` branch's does not, and both name it. A fork onto
 * another workflow version (its lineage names the `workflow` it left) runs under a workflow its start node
 * does not name, and that the registry may have moved on from: its `workflowAddress` is kept too.
 */
export function* listThreadRootsOf(
  threads: Iterable<{
    head: Address;
    start: Address;
    forkedFrom: { address: Address; workflow?: Address } | null;
    branchOf?: { address: Address } | null;
    workflowAddress: Address;
  }>,
): Generator<Address> {
  for (const thread of threads) {
    yield thread.head;
    yield thread.start;
    if (thread.forkedFrom !== null) yield thread.forkedFrom.address;
    if (thread.forkedFrom?.workflow !== undefined) yield thread.workflowAddress;
    if (thread.branchOf !== undefined && thread.branchOf !== null) yield thread.branchOf.address;
  }
}
