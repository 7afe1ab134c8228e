import type { Address } from "@uwf/protocol";
import { findChainIndexProblems } from "./find-chain-index-problems.ts";
import { listStoreRoots } from "./list-store-roots.ts";
import type { Store } from "./store.ts";
import { walkNodes } from "./walk-nodes.ts";

export const DEFAULT_GC_GRACE_MS = 60 * 60 * 1000;

/** Unreachable objects deleted per ref store transaction (their cached chain links are forgotten in one). */
const DELETE_BATCH = 1000;

export interface GcStoreOptions {
  /** The current time; objects written within `graceMs` before it are kept. */
  now: Date;
  /** Default one hour: longer than a step takes between writing its first node and moving the head. */
  graceMs?: number;
  /** Report what would be deleted without deleting it. */
  dryRun?: boolean;
}

export interface GcReport {
  dryRun: boolean;
  /** Objects kept because a root reaches them. */
  reachable: number;
  /** Unreachable objects kept because they were written within the grace period. */
  young: number;
  /** reachable + young. */
  kept: number;
  /** Unreachable objects deleted (or, in a dry run, that would be). */
  deleted: Address[];
  /** Leftover temporary files older than the grace period, deleted (or that would be). */
  deletedTemporaryFiles: string[];
  /** Threads whose chain index disagreed with their chain (see verify), dropped (or that would be). */
  droppedChainIndexes: string[];
}

/**
 * Deletes objects that no root reaches (thread heads, starts and fork points, registered
 * workflow versions) and that are older than the grace period, which protects the nodes of
 * a step still in flight: they are written before its head moves, and a re-put refreshes an
 * existing node's write time. Each deletion decides again (deleteIfWrittenBefore), so a step
 * that puts an old unreachable node again while gc runs keeps it. A reachable node that is
 * corrupt aborts the run (its refs are unknown, so anything might be reachable through it); run
 * verify first. Chain indexes that disagree with their chains are dropped first: derived data,
 * rebuilt by each thread's next step.
 */
export async function gcStore(store: Store, options: GcStoreOptions): Promise<GcReport> {
  const dryRun = options.dryRun === true;
  const cutoff = options.now.getTime() - (options.graceMs ?? DEFAULT_GC_GRACE_MS);
  const droppedChainIndexes: string[] = [];
  for (const { threadId } of await findChainIndexProblems(store)) {
    if (!dryRun) await store.refs.forgetChainIndex(threadId);
    droppedChainIndexes.push(threadId);
  }
  const reachable = new Set<Address>();
  await walkNodes(store.objects, await listStoreRoots(store.refs), {
    visit: (address) => {
      reachable.add(address);
    },
    // A root whose node is gone has nothing left to protect.
    onMissing: () => {},
  });

  const report: GcReport = {
    dryRun,
    reachable: 0,
    young: 0,
    kept: 0,
    deleted: [],
    deletedTemporaryFiles: [],
    droppedChainIndexes,
  };
  const doomed: Address[] = [];
  const deleteDoomed = async () => {
    if (doomed.length === 0) return;
    // The ref store's cached chain links go first: a crash in between then leaves a cache miss,
    // never a cached link to a deleted node.
    await store.refs.forgetChainLinks(doomed);
    for (const address of doomed) {
      // Decided again as it is deleted: a step may have put this node again since it was looked at.
      if (await store.objects.deleteIfWrittenBefore(address, cutoff)) report.deleted.push(address);
      else if (await store.objects.has(address)) report.young++;
    }
    doomed.length = 0;
  };
  for await (const address of store.objects.list()) {
    if (reachable.has(address)) {
      report.reachable++;
      continue;
    }
    // Only an unreachable object's write time matters, so only those are looked at.
    const writtenAt = await store.objects.writtenAt(address);
    if (writtenAt === null) continue; // deleted since it was listed
    if (writtenAt >= cutoff) report.young++;
    else if (dryRun) report.deleted.push(address);
    else {
      doomed.push(address);
      if (doomed.length >= DELETE_BATCH) await deleteDoomed();
    }
  }
  await deleteDoomed();
  report.kept = report.reachable + report.young;
  for await (const { name, writtenAt } of store.objects.listTemporaryFiles()) {
    if (writtenAt > cutoff) continue; // possibly a write in progress
    if (!dryRun) await store.objects.deleteTemporaryFile(name);
    report.deletedTemporaryFiles.push(name);
  }
  return report;
}
