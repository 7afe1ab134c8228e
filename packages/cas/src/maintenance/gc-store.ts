import { type Address, type GcReport, nodeKind } from "@uwf/protocol";
import { GcRefusedError } from "../errors/gc-refused-error.ts";
import { findLeaseCutoff, leaseMayStillCommit } from "../lease/find-lease-cutoff.ts";
import { isProcessGroupAlive } from "../lease/is-process-alive.ts";
import { walkNodes } from "../objects/walk-nodes.ts";
import type { Store } from "../store.ts";
import { listDeletedThreadStarts } from "./list-deleted-thread-starts.ts";
import { listStoreRoots } from "./list-store-roots.ts";

export const DEFAULT_GC_GRACE_MS = 60 * 60 * 1000;

/** Unreachable objects deleted per ref store transaction (their cached chain links are forgotten in one). */
const DELETE_BATCH = 1000;

export interface GcStoreOptions {
  /** The current time; objects written within `graceMs` before it are kept. */
  now: Date;
  /** Default one hour. Steps in flight are spared whatever it is (see findLeaseCutoff). */
  graceMs?: number;
  /** Report what would be deleted without deleting it. */
  dryRun?: boolean;
  /** This machine's name, as steps record it in their leases (see findLeaseCutoff). */
  host?: string;
  /** Delete even the nodes of threads no record names (`gc --force`): never refuse. */
  force?: boolean;
}

/**
 * Deletes objects that no root reaches (thread heads, starts and fork points, registered
 * workflow versions, evaluation reports' nodes) and that were last written before the cutoff: `now` less the grace period,
 * and never later than the oldest step lease that may still commit, so whatever a step in flight
 * wrote or put again (every node it will link that its thread does not reach yet) is kept, however
 * small the grace. The leases are read before the roots: a step that committed and let go of its
 * lease before that read has moved its head, which the roots then include.
 *
 * Each deletion decides again (deleteIfWrittenBefore), so a node put again while gc runs is kept.
 * A reachable node that is corrupt aborts the run (its refs are unknown, so anything might be
 * reachable through it); run verify first. When the nodes of threads no record names would be
 * deleted (thread start nodes; and step nodes too when no thread is recorded at all), nothing is:
 * GcRefusedError (the ref store lost them; `recover` rebuilds them), unless `force`; the start nodes of
 * threads `uwf delete` removed are collected without refusing. (The heads of lost steps, which need
 * thread logic to tell from abandoned ones, are the engine's findUnrecordedHeads, which `uwf cas gc`
 * checks first.) Leftovers older than the
 * cutoff are resolved last. (Chain indexes that disagree with their chains are thread logic: the
 * engine's dropDamagedChainIndexes, which fills the report's `droppedChainIndexes`.)
 */
export async function gcStore(store: Store, options: GcStoreOptions): Promise<Omit<GcReport, "droppedChainIndexes">> {
  const dryRun = options.dryRun === true;
  const leaseCutoff = await findLeaseCutoff(store.refs, { now: options.now, host: options.host });
  const graceCutoff = options.now.getTime() - (options.graceMs ?? DEFAULT_GC_GRACE_MS);
  const cutoff = leaseCutoff === null ? graceCutoff : Math.min(graceCutoff, leaseCutoff);
  // A store whose threads were all deleted on purpose still records what it lost.
  const recordsThreads =
    (await store.refs.listThreads({ limit: 0 })).total > 0 || (await store.refs.listDeletedThreads()).length > 0;
  const reachable = new Set<Address>();
  await walkNodes(store.objects, await listStoreRoots(store.refs), {
    visit: (address) => {
      reachable.add(address);
    },
    // A root whose node is gone has nothing left to protect.
    onMissing: () => {},
  });
  if (options.force !== true) {
    const deleted = await listDeletedThreadStarts(store);
    await refuseToDeleteUnrecordedThreads(store, { reachable, cutoff, recordsThreads, deleted });
  }
  const report: Omit<GcReport, "droppedChainIndexes"> = {
    dryRun,
    cutoff: new Date(cutoff).toISOString(),
    reachable: 0,
    young: 0,
    kept: 0,
    deleted: [],
    deletedTemporaryFiles: [],
    forgottenLeases: [],
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
    if (writtenAt >= cutoff) continue; // possibly a write, or another gc's decision, in progress
    if (!dryRun) await store.objects.deleteTemporaryFile(name);
    report.deletedTemporaryFiles.push(name);
  }
  report.forgottenLeases = await forgetCrashedLeases(store, { ...options, dryRun });
  return report;
}

/**
 * Removes the lease rows crashed steps left, which no step may still commit under (leaseMayStillCommit):
 * a dead holder of this host, a holder elsewhere past its lifetime, the expired pid-0 row of an unsettled
 * release — unless its agent still runs here. A row whose intended head is still a node no record holds stays, so verify and gc can tell that
 * node for a crashed step's (it goes once gc has collected the node, or a step has settled its thread).
 */
async function forgetCrashedLeases(store: Store, options: GcStoreOptions & { dryRun: boolean }): Promise<string[]> {
  const forgotten: string[] = [];
  for (const lease of await store.refs.listLeases()) {
    if (leaseMayStillCommit(lease, { now: options.now, host: options.host })) continue;
    // An agent the dead stepper left running here: the row stays, so the next stepper stops that agent.
    const group = lease.agentGroup;
    if (lease.host === options.host && group !== null && group > 1 && isProcessGroupAlive(group)) continue;
    if (lease.intendedHead !== null) {
      const thread = await store.refs.getThread(lease.threadId);
      const settled = thread === null || thread.head === lease.intendedHead;
      if (!settled && (await store.objects.has(lease.intendedHead))) continue;
    }
    if (options.dryRun || (await store.refs.forgetLease(lease))) forgotten.push(lease.threadId);
  }
  return forgotten;
}

interface RefuseOptions {
  reachable: Set<Address>;
  cutoff: number;
  recordsThreads: boolean;
  /** Start nodes and heads of deleted threads: unreached on purpose. */
  deleted: Set<Address>;
}

/**
 * Reads what would be deleted, before anything is, and refuses when it holds the nodes of lost
 * threads: a thread start node (only a thread record reaches one; a failed step leaves step, output,
 * text and run nodes, never a start), or, with no thread recorded at all, any thread node.
 */
async function refuseToDeleteUnrecordedThreads(store: Store, options: RefuseOptions): Promise<void> {
  const { reachable, cutoff, recordsThreads, deleted } = options;
  let startNodes = 0;
  let stepNodes = 0;
  for await (const address of store.objects.list()) {
    if (reachable.has(address) || deleted.has(address)) continue;
    const writtenAt = await store.objects.writtenAt(address);
    if (writtenAt === null || writtenAt >= cutoff) continue;
    let kind: string | null;
    try {
      kind = nodeKind(await store.objects.get(address));
    } catch {
      continue; // gone since it was listed, or corrupt: not evidence either way
    }
    if (kind === "thread-start/1") startNodes++;
    else if (kind === "thread-step/1") stepNodes++;
  }
  if (startNodes > 0 || (!recordsThreads && stepNodes > 0)) {
    throw GcRefusedError.lostThreads(startNodes, stepNodes, recordsThreads);
  }
}
