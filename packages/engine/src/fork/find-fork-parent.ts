import type { Store } from "@uwf/cas";
import type { Address, ThreadRecord } from "@uwf/protocol";
import { readChain } from "../history/read-chain.ts";

export interface ForkPoint {
  /** The node forked at: a start node or a step. */
  address: Address;
  /** Its number in any chain that holds it: 0 for a start node, n for step n. */
  step: number;
}

/**
 * The parent of a fork made at a node, when the user named no thread (DESIGN §4): the thread in whose
 * chain the node was first recorded. Among the threads whose chain holds the node as that step, one
 * that recorded it itself (recordedNode), else one whose lineage does not say, else any; the oldest
 * first within each. A fork that merely holds the node, as its head or below it, is never preferred
 * to the thread it came from, so repeated forks of one address are siblings under that thread. For a
 * start node this is the oldest original started with it. Null when no thread holds the node.
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
  const rank = (thread: ThreadRecord) => {
    const recorded = recordedNode(thread, point);
    return recorded === true ? 0 : recorded === null ? 1 : 2;
  };
  const ordered = [...candidates].sort(
    (left, right) => rank(left) - rank(right) || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0),
  );
  // In the order of preference, so the search stops at the first holder: usually the first candidate.
  for (const candidate of ordered) if (await chainHolds(store, candidate, point)) return candidate;
  return null;
}

/**
 * Whether a thread whose chain holds the node as that step recorded it itself: an original did; a fork
 * recorded the steps after its fork point, and the step at it when it replaced that step's reply (its
 * chain then holds its own new step there). False for a node a fork shares with its parent; null for a
 * fork whose lineage names no step (recorded by an older uwf).
 */
export function recordedNode(thread: ThreadRecord, point: ForkPoint): boolean | null {
  const origin = thread.forkedFrom;
  if (origin === null) return true;
  if (origin.step === null) return null;
  return point.step > origin.step || (point.step === origin.step && origin.replaced === true);
}

/**
 * The thread in whose chain the node was first recorded, from a thread that holds it (the one a user
 * named: a thread forked at its head, or `--from`): up its lineage while the thread only shares the
 * node with its parent, and that parent is recorded and holds it too.
 */
export async function findNodeRecorder(
  store: Pick<Store, "objects" | "refs">,
  holder: ThreadRecord,
  point: ForkPoint,
): Promise<ThreadRecord> {
  const seen = new Set<string>([holder.id]);
  let current = holder;
  for (;;) {
    const parentId = current.forkedFrom?.thread ?? null;
    if (recordedNode(current, point) !== false || parentId === null || seen.has(parentId)) return current;
    const parent = await store.refs.getThread(parentId);
    if (parent === null || !(await chainHolds(store, parent, point))) return current;
    seen.add(parent.id);
    current = parent;
  }
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
