import type { ObjectStore } from "@uwf/cas";
import {
  type Address,
  type ThreadStartNode,
  type ThreadStepNode,
  threadStartNodeSchema,
  threadStepNodeSchema,
  UwfError,
} from "@uwf/protocol";

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

/** Follows `prev` links from a head (a step or a start node) back to the start node. Reads only this chain. */
export async function readChain(objects: ObjectStore, head: Address): Promise<ThreadChain> {
  const reversed: Array<{ address: Address; node: ThreadStepNode }> = [];
  let address: Address = head;
  for (;;) {
    const node = await objects.get(address);
    const kind = (node as { type?: unknown } | null)?.type;
    if (kind === "thread-start/1") {
      const start = threadStartNodeSchema.parse(node);
      const steps = reversed.reverse().map((step, index) => ({ ...step, number: index + 1 }));
      return { startAddress: address, start, steps };
    }
    if (kind !== "thread-step/1") {
      throw new UwfError("not-a-thread-node", `node ${address} is a ${String(kind)} node, not a thread start or step`, {
        data: { address, kind: String(kind) },
      });
    }
    const step = threadStepNodeSchema.parse(node);
    reversed.push({ address, node: step });
    address = step.prev ?? step.start;
  }
}
