import type { Address } from "@uwf/protocol";

/**
 * What gc must keep for a thread: its head and start, the node it was forked from and, for a branch,
 * its parent's fan-out step. A fork with a replacement output starts a new branch beside that node, so
 * the node is not on the fork's own chain, yet `show` and `fork` still name it; a `role:` branch's chain
 * goes through its fan-out step anyway, a `workflow:` branch's does not, and both name it.
 */
export function* listThreadRootsOf(
  threads: Iterable<{
    head: Address;
    start: Address;
    forkedFrom: { address: Address } | null;
    branchOf?: { address: Address } | null;
  }>,
): Generator<Address> {
  for (const thread of threads) {
    yield thread.head;
    yield thread.start;
    if (thread.forkedFrom !== null) yield thread.forkedFrom.address;
    if (thread.branchOf !== undefined && thread.branchOf !== null) yield thread.branchOf.address;
  }
}
