import { type ChainLink, hashBytes, hashNode, parseAddress, type Store, walkNodes } from "@uwf/cas";
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

type StepAt = { address: Address; node: ThreadStepNode };

const UTF8 = new TextDecoder();

/**
 * Follows `prev` links from a head (a step or a start node) back to the start node. Reads only
 * this chain: never outputs, bodies or other threads.
 *
 * The head and the start node always come from the object store. The steps between come from
 * the ref store's cache of chain links as far as it has them, each re-hashed and checked to
 * link to the one after it, and from the object store for the rest, through the store's one
 * generic traversal; what had to be read that way is cached for the next reader. So a step on a
 * 1,000-step thread makes one query instead of reading 1,000 files, and a cache that is missing,
 * partial or damaged costs only time.
 */
export async function readChain(store: Pick<Store, "objects" | "refs">, headInput: Address): Promise<ThreadChain> {
  const head = parseAddress(headInput);
  const headNode = await store.objects.get(head);
  const headKind = nodeKind(headNode);
  if (headKind === "thread-start/1") {
    return { startAddress: head, start: storedNodeAs<ThreadStartNode>(headKind, head, headNode), steps: [] };
  }
  if (headKind !== "thread-step/1") throw notAThreadNode(head, headKind);
  const newestFirst: StepAt[] = [{ address: head, node: headNode as ThreadStepNode }];

  let recalled = await store.refs.recallChain(head);
  const headWasCached = recalled[0]?.address === head;
  if (headWasCached) recalled = recalled.slice(1);
  else recalled = await store.refs.recallChain(previousOf(headNode as ThreadStepNode));
  for (const link of recalled) {
    const step = stepOfLink(link, previousOf((newestFirst.at(-1) as StepAt).node));
    if (step === null) break;
    newestFirst.push(step);
  }

  const walked: StepAt[] = [];
  let start: { address: Address; node: ThreadStartNode } | null = null;
  await walkNodes(store.objects, [previousOf((newestFirst.at(-1) as StepAt).node)], {
    refsOf: (node) => {
      const step = node as ThreadStepNode;
      return nodeKind(node) === "thread-step/1" ? [previousOf(step)] : [];
    },
    visit: (address, node) => {
      const kind = nodeKind(node);
      if (kind === "thread-step/1") walked.push({ address, node: storedNodeAs<ThreadStepNode>(kind, address, node) });
      else if (kind === "thread-start/1") start = { address, node: storedNodeAs<ThreadStartNode>(kind, address, node) };
      else throw notAThreadNode(address, kind);
    },
  });
  const found = start as { address: Address; node: ThreadStartNode } | null;
  if (found === null)
    throw new UwfError("broken-chain", `the chain from ${head} does not reach a start node`, { data: { head } });

  await store.refs.rememberChainLinks([...(headWasCached ? [] : newestFirst.slice(0, 1)), ...walked].flatMap(linkOf));
  const steps = [...newestFirst, ...walked].reverse().map((step, index) => ({ ...step, number: index + 1 }));
  return { startAddress: found.address, start: found.node, steps };
}

function previousOf(step: ThreadStepNode): Address {
  return step.prev ?? step.start;
}

/** The step a cached link holds, if it is the one expected and its bytes are what they claim; else null. */
function stepOfLink(link: ChainLink, expected: Address): StepAt | null {
  if (link.address !== expected || hashBytes(link.bytes) !== link.address) return null;
  let node: unknown;
  try {
    node = JSON.parse(UTF8.decode(link.bytes));
  } catch {
    return null;
  }
  if (nodeKind(node) !== "thread-step/1" || previousOf(node as ThreadStepNode) !== link.prev) return null;
  return { address: link.address, node: node as ThreadStepNode };
}

/** The link to cache for a step read from the object store; none if its bytes there were not canonical JSON. */
function linkOf(step: StepAt): ChainLink[] {
  const { address, bytes } = hashNode(step.node);
  return address === step.address ? [{ address, prev: previousOf(step.node), bytes }] : [];
}

function notAThreadNode(address: Address, kind: string | null | undefined): UwfError {
  return new UwfError("not-a-thread-node", `node ${address} is a ${String(kind)} node, not a thread start or step`, {
    data: { address, kind: String(kind) },
  });
}
