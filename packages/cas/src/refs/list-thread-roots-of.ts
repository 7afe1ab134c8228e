import type { Address } from "@uwf/protocol";

/**
 * What gc must keep for a thread: its head and start, and the node it was forked from. A
 * fork with a replacement output starts a new branch beside that node, so the node is not on
 * the fork's own chain, yet `show` and `fork` still name it.
 */
export function* listThreadRootsOf(
  threads: Iterable<{ head: Address; start: Address; forkedFrom: { address: Address } | null }>,
): Generator<Address> {
  for (const thread of threads) {
    yield thread.head;
    yield thread.start;
    if (thread.forkedFrom !== null) yield thread.forkedFrom.address;
  }
}
