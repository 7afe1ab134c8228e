import type { Address } from "@uwf/protocol";
import type { Store } from "../store.ts";

/**
 * The start nodes of the threads `uwf delete` removed (read from each one's remembered head, while it
 * is stored), and those heads: nodes gc and verify may find unreached on purpose.
 */
export async function listDeletedThreadStarts(store: Pick<Store, "objects" | "refs">): Promise<Set<Address>> {
  const nodes = new Set<Address>();
  for (const { head } of await store.refs.listDeletedThreads()) {
    nodes.add(head);
    try {
      const node = (await store.objects.get(head)) as { type?: unknown; start?: unknown };
      if (node.type === "thread-step/1" && typeof node.start === "string") nodes.add(node.start as Address);
    } catch {
      // Collected already, or corrupt: nothing to spare.
    }
  }
  return nodes;
}
