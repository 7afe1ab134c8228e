import {
  type ChainIndex,
  type ChainLink,
  type ChainStepDetails,
  hashBytes,
  hashNode,
  parseAddress,
  type Store,
  walkNodes,
} from "@uwf/cas";
import { type Address, nodeKind, type ThreadRecord, type ThreadStartNode, type ThreadStepNode } from "@uwf/protocol";
import { BrokenChainError } from "../errors/broken-chain-error.ts";
import { NotAThreadNodeError } from "../errors/not-a-thread-node-error.ts";
import { storedNodeAs } from "./stored-node.ts";

/** A step of a chain; its number is its position in `ThreadChain.steps` plus one. */
export interface ChainStep {
  address: Address;
  role: string;
  /** What the thread's chain index keeps of the step besides (see `ChainIndexStep.details`), when asked for and kept. */
  details?: ChainStepDetails;
}

export interface ThreadChain {
  startAddress: Address;
  start: ThreadStartNode;
  /** Oldest first: the step at index i is step number i + 1. */
  steps: readonly ChainStep[];
  /**
   * The step nodes read to find the chain, by position in `steps` (a sparse array): always the
   * head's, and every step's when the chain was walked.
   */
  nodes: readonly (ThreadStepNode | undefined)[];
  /** Whether the steps came from the thread's chain index (which may then be extended) or from a walk. */
  indexed: boolean;
  /**
   * Given the thread: the steps its chain index holds past this head, when the index goes on from it.
   * The index is kept after the head moves, so it never leads a record that was not set back: steps here
   * mean the record was restored to an older head (ThreadRecordBehindError). Empty otherwise.
   */
  indexedPastHead?: readonly ChainStep[];
}

export interface ReadChainOptions {
  /** The thread whose head this is: its chain index, if it ends at this head, saves walking the chain. */
  thread?: Pick<ThreadRecord, "id" | "stepCount">;
  /** Recall the steps' details with the index (what `uwf diff` reads instead of their nodes); a step does not need them. */
  details?: boolean;
}

type StepAt = { address: Address; node: ThreadStepNode };

const UTF8 = new TextDecoder();

/**
 * The chain from a head (a step or a start node) back to its start node. Reads only this chain:
 * never outputs, bodies or other threads. The head and the start node always come from the
 * object store.
 *
 * Given the thread, if its chain index (in the ref store) ends at this head, agrees with the head
 * node and has as many steps as the thread record counts, the steps between are the index's: their
 * nodes are read later, and only if asked for. Otherwise the chain is walked: from the ref store's cache of chain links as far as it has them,
 * each re-hashed and checked to link to the one after it, and from the object store for the rest,
 * through the store's one generic traversal; what had to be read that way is cached for the next
 * reader. So a step on a 1,000-step thread reads one row, a walk reads one query rather than 1,000
 * files, and an index or cache that is missing, stale or damaged costs only time.
 */
export async function readChain(
  store: Pick<Store, "objects" | "refs">,
  headInput: Address,
  options: ReadChainOptions = {},
): Promise<ThreadChain> {
  const head = parseAddress(headInput);
  const headNode = await store.objects.get(head);
  const headKind = nodeKind(headNode);
  if (headKind === "thread-start/1") {
    const start = storedNodeAs<ThreadStartNode>(headKind, head, headNode);
    const chain = { startAddress: head, start, steps: [], nodes: [], indexed: false };
    if (options.thread === undefined || options.thread.stepCount !== 0) return chain;
    const index = await store.refs.recallChainIndex(options.thread.id);
    if (index === null || index.start !== head || index.steps.length === 0) return chain;
    return { ...chain, indexedPastHead: index.steps };
  }
  if (headKind !== "thread-step/1") throw new NotAThreadNodeError(head, headKind);
  const headStep: StepAt = { address: head, node: headNode as ThreadStepNode };
  const { thread } = options;
  if (thread !== undefined) {
    const index = await store.refs.recallChainIndex(thread.id, { details: options.details === true });
    if (index !== null && index.steps.length === thread.stepCount && indexEndsAt(index, headStep)) {
      return chainOfIndex(store, index, headStep);
    }
    if (index !== null && index.steps.length > thread.stepCount && indexPassesThrough(index, headStep, thread)) {
      return { ...(await walkChain(store, headStep)), indexedPastHead: index.steps.slice(thread.stepCount) };
    }
  }
  return walkChain(store, headStep);
}

/** Whether the index's chain holds this head at the record's step count, with the head's role, start and prev, and goes on. */
function indexPassesThrough(index: ChainIndex, head: StepAt, thread: Pick<ThreadRecord, "stepCount">): boolean {
  const at = index.steps[thread.stepCount - 1];
  const beforeAt = index.steps[thread.stepCount - 2]?.address ?? index.start;
  return (
    at?.address === head.address &&
    at.role === head.node.role &&
    index.start === head.node.start &&
    beforeAt === previousOf(head.node)
  );
}

/** Whether the index's chain is the one ending at this head: its last step is the head, with the head's role, start and prev. */
function indexEndsAt(index: ChainIndex, head: StepAt): boolean {
  const last = index.steps.at(-1);
  const beforeLast = index.steps.at(-2)?.address ?? index.start;
  return (
    last?.address === head.address &&
    last.role === head.node.role &&
    index.start === head.node.start &&
    beforeLast === previousOf(head.node)
  );
}

async function chainOfIndex(store: Pick<Store, "objects">, index: ChainIndex, head: StepAt): Promise<ThreadChain> {
  const start = storedNodeAs<ThreadStartNode>("thread-start/1", index.start, await store.objects.get(index.start));
  const nodes: ThreadStepNode[] = [];
  nodes[index.steps.length - 1] = head.node;
  return { startAddress: index.start, start, steps: index.steps, nodes, indexed: true };
}

/** The chain read step by step: from the cache of chain links as far as it goes, then from the object store. */
async function walkChain(store: Pick<Store, "objects" | "refs">, headStep: StepAt): Promise<ThreadChain> {
  const head = headStep.address;
  const headNode = headStep.node;
  const newestFirst: StepAt[] = [headStep];

  let recalled = await store.refs.recallChain(head);
  const headWasCached = recalled[0]?.address === head;
  if (headWasCached) recalled = recalled.slice(1);
  else recalled = await store.refs.recallChain(previousOf(headNode));
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
      else throw new NotAThreadNodeError(address, kind);
    },
  });
  const found = start as { address: Address; node: ThreadStartNode } | null;
  if (found === null) throw new BrokenChainError(head);

  try {
    await store.refs.rememberChainLinks([...(headWasCached ? [] : newestFirst.slice(0, 1)), ...walked].flatMap(linkOf));
  } catch {
    // The links are a cache: a store that cannot be written (read-only, full) is read all the same.
  }
  const oldestFirst = [...newestFirst, ...walked].reverse();
  const steps = oldestFirst.map(({ address, node }) => ({ address, role: node.role }));
  const nodes = oldestFirst.map(({ node }) => node);
  return { startAddress: found.address, start: found.node, steps, nodes, indexed: false };
}

/** The index of a chain, to remember for the thread it is the chain of. */
export function indexOfChain(chain: Pick<ThreadChain, "startAddress" | "steps">): ChainIndex {
  return {
    start: chain.startAddress,
    steps: chain.steps.map(({ address, role, details }) =>
      details === undefined ? { address, role } : { address, role, details },
    ),
  };
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
