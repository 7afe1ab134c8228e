import { type ObjectStore, walkNodes } from "@uwf/cas";
import { type Address, nodeKind, type ThreadStartNode, type ThreadStepNode, UwfError } from "@uwf/protocol";
import { storedNodeAs } from "./stored-node.ts";

export interface ChainStep {
  /** The real step number: 1 for the first step after the start node. */
  number: number;
  address: Address;
  node: ThreadStepNode;
}

export interface ThreadChain {
  startAddress: Address;
  start: ThreadStartNode;
  /** Oldest first. */
  steps: ChainStep[];
}

/**
 * Follows `prev` links from a head (a step or a start node) back to the start node, through the
 * store's one generic traversal. Reads only this chain: never outputs, bodies or other threads.
 */
export async function readChain(objects: ObjectStore, head: Address): Promise<ThreadChain> {
  const reversed: Array<{ address: Address; node: ThreadStepNode }> = [];
  let start: { address: Address; node: ThreadStartNode } | null = null;
  await walkNodes(objects, [head], {
    refsOf: (node) => {
      const step = node as ThreadStepNode;
      return nodeKind(node) === "thread-step/1" ? [step.prev ?? step.start] : [];
    },
    visit: (address, node) => {
      const kind = nodeKind(node);
      if (kind === "thread-step/1") reversed.push({ address, node: storedNodeAs<ThreadStepNode>(kind, address, node) });
      else if (kind === "thread-start/1") start = { address, node: storedNodeAs<ThreadStartNode>(kind, address, node) };
      else {
        throw new UwfError(
          "not-a-thread-node",
          `node ${address} is a ${String(kind)} node, not a thread start or step`,
          {
            data: { address, kind: String(kind) },
          },
        );
      }
    },
  });
  const found = start as { address: Address; node: ThreadStartNode } | null;
  if (found === null)
    throw new UwfError("broken-chain", `the chain from ${head} does not reach a start node`, { data: { head } });
  const steps = reversed.reverse().map((step, index) => ({ ...step, number: index + 1 }));
  return { startAddress: found.address, start: found.node, steps };
}
