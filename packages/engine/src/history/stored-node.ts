import { nodeKind } from "@uwf/protocol";
import { UnexpectedNodeKindError } from "../errors/unexpected-node-kind-error.ts";

/**
 * A node read back from the store, as its kind. The store has already re-hashed it, and uwf wrote it
 * through the protocol's schemas, so the hot paths (every step reads its whole chain) check the kind
 * and skip a full zod parse, which cost about a third of reading a long chain.
 */
export function storedNodeAs<Node>(kind: string, address: string, node: unknown): Node {
  const actual = nodeKind(node);
  if (actual !== kind) throw new UnexpectedNodeKindError(address, kind, actual);
  return node as Node;
}
