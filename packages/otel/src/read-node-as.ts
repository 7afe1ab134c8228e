import type { ObjectStore } from "@uwf/cas";
import { nodeKind } from "@uwf/protocol";

/**
 * A node read back as the kind uwf wrote it, or null when it is another kind: an exporter shows what
 * it can and never fails a step over a node it did not expect.
 */
export async function readNodeAs<Node>(objects: ObjectStore, address: string, kind: string): Promise<Node | null> {
  const node = await objects.get(address);
  return nodeKind(node) === kind ? (node as Node) : null;
}
