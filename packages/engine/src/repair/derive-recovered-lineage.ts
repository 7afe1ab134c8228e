import type { Address, ForkOrigin } from "@uwf/protocol";
import { makerOf, type ThreadNodeScan } from "./scan-thread-nodes.ts";

/** A thread as lineage sees it: its id (ids sort by creation time) and its chain, start node first. */
export interface LineageThread {
  id: string;
  /** `chain[0]` is the start node, `chain[i]` step i. */
  chain: readonly Address[];
}

export interface DeriveRecoveredLineageOptions {
  /** The thread being rebuilt. */
  thread: LineageThread;
  scan: ThreadNodeScan;
  /** Every other thread known: the records, and those rebuilt so far. */
  threads: readonly LineageThread[];
}

export interface RecoveredLineage {
  forkedFrom: ForkOrigin | null;
  /** The position of the thread's first own step in its chain (its spend counts from there); chain length when it has none. */
  ownFrom: number;
}

/**
 * Where a thread rebuilt by recover was forked from, from the chains alone: a thread's own steps are the
 * newest run of steps whose agent runs name it, and the node before them is where it was forked. Its
 * parent is the thread that made that node (the oldest that holds it, since a fork comes after the step
 * it forks); for a start node, the oldest other thread started from it, or none (an original). When the
 * first own step is a reply given by hand (`fork --output`), the fork replaced the sibling step an older
 * thread made at that place. Runs written before runs named their thread say nothing: the fork point is
 * then the deepest node the thread shares with an older thread.
 *
 * (forkThread decides a new fork's parent with findForkParent; this is recover's own rule, from nodes.)
 */
export function deriveRecoveredLineage(options: DeriveRecoveredLineageOptions): RecoveredLineage {
  const { thread, scan } = options;
  const { chain } = thread;
  const last = chain.length - 1;
  const older = options.threads.filter((other) => other.id !== thread.id && other.id < thread.id);
  let ownFrom: number;
  if (last >= 1 && makerOf(scan, chain[last] as Address) === thread.id) {
    ownFrom = last;
    while (ownFrom > 1 && makerOf(scan, chain[ownFrom - 1] as Address) === thread.id) ownFrom--;
  } else {
    const shared = Math.max(-1, ...older.map((other) => sharedPrefix(other.chain, chain) - 1));
    if (shared < 0) return { forkedFrom: null, ownFrom: 1 };
    ownFrom = shared + 1;
  }
  const first = chain[ownFrom];
  if (first !== undefined && isManual(scan, first)) {
    const replaced = replacedSibling(scan, chain[ownFrom - 1] as Address, first);
    if (replaced !== null) {
      const parent = makerOf(scan, replaced) ?? oldestHolder(older, replaced, ownFrom);
      return { forkedFrom: { thread: parent, step: ownFrom, address: replaced, replaced: true }, ownFrom };
    }
  }
  const point = ownFrom - 1;
  const address = chain[point] as Address;
  if (point === 0) {
    const parent = oldestHolder(older, address, 0);
    if (parent === null) return { forkedFrom: null, ownFrom };
    return { forkedFrom: { thread: parent, step: 0, address, replaced: false }, ownFrom };
  }
  const parent = makerOf(scan, address) ?? oldestHolder(older, address, point);
  return { forkedFrom: { thread: parent, step: point, address, replaced: false }, ownFrom };
}

/** How many nodes two chains share from their start. */
function sharedPrefix(left: readonly Address[], right: readonly Address[]): number {
  let shared = 0;
  while (shared < left.length && shared < right.length && left[shared] === right[shared]) shared++;
  return shared;
}

/** The oldest of these threads whose chain holds the node at that position; null when none does. */
function oldestHolder(threads: readonly LineageThread[], address: Address, position: number): string | null {
  const holders = threads.filter((other) => other.chain[position] === address).map((other) => other.id);
  return holders.sort()[0] ?? null;
}

function isManual(scan: ThreadNodeScan, step: Address): boolean {
  const run = scan.steps.get(step)?.run;
  return run !== null && run !== undefined && scan.runs.get(run)?.manual === true;
}

/** The step a replacement reply replaced: the oldest other step on the same node that is not itself given by hand. */
function replacedSibling(scan: ThreadNodeScan, previous: Address, replacement: Address): Address | null {
  let found: { address: Address; startedAt: string } | null = null;
  for (const [address, step] of scan.steps) {
    if (address === replacement || (step.prev ?? step.start) !== previous || isManual(scan, address)) continue;
    if (found === null || step.startedAt < found.startedAt) found = { address, startedAt: step.startedAt };
  }
  return found?.address ?? null;
}
