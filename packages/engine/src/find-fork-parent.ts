import type { Store } from "@uwf/cas";
import type { Address, ThreadRecord } from "@uwf/protocol";
import { readChain } from "./read-chain.ts";

export interface ForkPoint {
  /** The node forked at: a start node or a step. */
  address: Address;
  /** Its number in any chain that holds it: 0 for a start node, n for step n. */
  step: number;
}

/**
 * The parent of a fork made at a node, when the user named no thread: among the threads whose chain
 * holds the node as that step, the one whose head it is, else an original (no fork), else any; the
 * oldest first within each. A step is made by one thread, and every other thread that holds it was
 * forked from that one later, so outside the head rule this is the thread that made the step (for a
 * start node, the oldest thread started with it). Null when no thread holds the node.
 */
export async function findForkParent(
  store: Pick<Store, "objects" | "refs">,
  point: ForkPoint & { start: Address },
): Promise<ThreadRecord | null> {
  const { threads } = await store.refs.listThreads({ start: point.start });
  return chooseForkParent(store, threads, point);
}

/** As findForkParent, choosing among these threads only. */
export async function chooseForkParent(
  store: Pick<Store, "objects" | "refs">,
  candidates: readonly ThreadRecord[],
  point: ForkPoint,
): Promise<ThreadRecord | null> {
  const rank = (thread: ThreadRecord) => (thread.head === point.address ? 0 : thread.forkedFrom === null ? 1 : 2);
  const ordered = [...candidates].sort(
    (left, right) => rank(left) - rank(right) || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0),
  );
  // In the order of preference, so the search stops at the first holder: usually the first candidate.
  for (const candidate of ordered) if (await chainHolds(store, candidate, point)) return candidate;
  return null;
}

/**
 * Whether the thread's chain holds the node as that step. Reads the thread's chain index (one row) when
 * it ends at the record's head with as many steps as the record counts, and the chain otherwise; a thread
 * whose chain cannot be read holds nothing.
 */
export async function chainHolds(
  store: Pick<Store, "objects" | "refs">,
  thread: ThreadRecord,
  point: ForkPoint,
): Promise<boolean> {
  if (point.step === 0) return thread.start === point.address;
  if (thread.head === point.address) return true;
  if (thread.stepCount < point.step) return false;
  const index = await store.refs.recallChainIndex(thread.id);
  if (index !== null && index.steps.length === thread.stepCount && index.steps.at(-1)?.address === thread.head) {
    return index.steps[point.step - 1]?.address === point.address;
  }
  try {
    const chain = await readChain(store, thread.head, { thread });
    return chain.steps[point.step - 1]?.address === point.address;
  } catch {
    return false;
  }
}
