import { findLeaseCutoff, listStoreRoots, type Store } from "@uwf/cas";
import type { Address, ThreadRecord } from "@uwf/protocol";
import { chainOf, makerOf, scanThreadNodes, type ThreadNodeScan } from "./scan-thread-nodes.ts";

export interface FindUnrecordedHeadsOptions {
  now: Date;
  /** This machine's name, as steps record it in their leases (see findLeaseCutoff). */
  host: string;
  /** A scan already made; default a new one. */
  scan?: ThreadNodeScan;
}

/** The head of a thread, or of a thread's newer steps, that the ref store does not record. */
export interface UnrecordedHead {
  /** A step node, or a start node (a thread that took no step). */
  address: Address;
  /** Its chain's start node. */
  start: Address;
  /** The thread whose steps end here, as their agent runs name it; null on runs written before they did. */
  thread: string | null;
  /** The recorded thread whose head this chain extends (the ref store is older than the thread); null when no record stands for it. */
  behind: ThreadRecord | null;
  /** Steps in its chain. */
  steps: number;
  /** Of those, the steps no thread record holds. */
  unrecorded: number;
}

/** A step node no step continues and no record holds that is not a lost thread's head. */
export interface AbandonedHead {
  address: Address;
  thread: string;
  /**
   * `crashed`: the step that wrote it died before moving its thread's head there, as its lease records
   * (Lease.intendedHead), and the record is still where that step started; `superseded`: its thread's
   * record went on without it (a step killed after writing, or one that lost the head's compare-and-swap);
   * `deleted`: its thread was deleted.
   */
  reason: "crashed" | "superseded" | "deleted";
}

export interface UnrecordedHeads {
  scan: ThreadNodeScan;
  /** Every record, and every thread `uwf delete` removed, as read after the scan. */
  records: ThreadRecord[];
  /** Written before the in-flight cutoff, so no step or fork in progress can still record them: what verify reports, gc refuses to delete and recover rebuilds. */
  heads: UnrecordedHead[];
  /** Written since: a step in flight (or a fork being recorded) may yet record them. */
  inFlight: UnrecordedHead[];
  abandoned: AbandonedHead[];
  /** The steps in the chains of `heads` that no record holds, each counted once (chains share steps). */
  unrecordedSteps: number;
}

/**
 * Finds every head the ref store does not record, from one scan of the object store. A head is a node
 * no step continues (or, for a thread whose runs name it, the newest step that thread made, which a
 * fork may have continued: an interior head), that no record's chain holds and that no deleted
 * thread had. When a recorded thread's own steps go on past its recorded head, that record is behind
 * (the ref store was restored from an older copy) and the head is reported with it.
 *
 * The steps a recorded thread made off its chain (a step killed after writing its nodes, or one that
 * lost the compare-and-swap to another stepper) are abandoned, not lost; so are the steps of deleted
 * threads. Steps whose runs do not name their thread (written before runs did) cannot be told apart
 * that way: each such tip that no record holds is reported as a head.
 *
 * The leases are read before the scan and again after the records, and the roots once more after that,
 * so a step that commits while this runs is never reported: it holds its lease at the second read (what
 * it wrote is then newer than the in-flight cutoff), or has moved its head by the last.
 */
export async function findUnrecordedHeads(
  store: Pick<Store, "objects" | "refs">,
  options: FindUnrecordedHeadsOptions,
): Promise<UnrecordedHeads> {
  const leaseOptions = { now: options.now, host: options.host };
  const firstCutoff = await findLeaseCutoff(store.refs, leaseOptions);
  const scan = options.scan ?? (await scanThreadNodes(store));
  const records = (await store.refs.listThreads({})).threads;
  // Read after the scan: a step records the head it means to write before writing it, so every such node
  // the scan found is named here unless a later step of its thread has since recorded its own.
  const intended = new Map<string, Address>();
  for (const lease of await store.refs.listLeases()) {
    if (lease.intendedHead !== null) intended.set(lease.threadId, lease.intendedHead);
  }
  const deleted = await store.refs.listDeletedThreads();
  const deletedIds = new Set(deleted.map((entry) => entry.id));
  const deletedHeads = new Set(deleted.map((entry) => entry.head));
  const recordOf = new Map(records.map((record) => [record.id, record]));
  const held = holdings(scan, await listStoreRoots(store.refs));
  const continued = new Set<Address>();
  const continuedByMaker = new Set<string>();
  for (const [address, step] of scan.steps) {
    const previous = step.prev ?? step.start;
    continued.add(previous);
    const maker = makerOf(scan, address);
    if (maker !== null) continuedByMaker.add(`${maker} ${previous}`);
  }

  const found: UnrecordedHead[] = [];
  const abandoned: AbandonedHead[] = [];
  const claimed = new Set<string>();
  const headOf = (address: Address, thread: string | null, behind: ThreadRecord | null): UnrecordedHead => {
    const chain = chainOf(scan, address);
    const steps = chain.length - (scan.starts.has(chain[0] as Address) ? 1 : 0);
    const start = chain[0] as Address;
    return {
      address,
      start,
      thread,
      behind,
      steps,
      unrecorded: chain.filter((node) => scan.steps.has(node) && !held.has(node)).length,
    };
  };

  // Steps whose runs name their thread: each thread's newest own step is its head.
  const ownTips = new Map<string, Address[]>();
  for (const address of scan.steps.keys()) {
    const maker = makerOf(scan, address);
    if (maker === null || continuedByMaker.has(`${maker} ${address}`)) continue;
    ownTips.set(maker, [...(ownTips.get(maker) ?? []), address]);
  }
  for (const [thread, tips] of [...ownTips].sort(([left], [right]) => (left < right ? -1 : 1))) {
    const newestFirst = [...tips].sort((left, right) => newer(scan, left, right));
    if (deletedIds.has(thread)) {
      for (const address of newestFirst) if (!held.has(address)) abandoned.push({ address, thread, reason: "deleted" });
      continue;
    }
    const record = recordOf.get(thread);
    // A recorded thread's head moves only forward along its own chain: a tip past it is where it got to,
    // even when a fork holds it (the thread's record alone was restored to an older head).
    const ahead =
      record === undefined
        ? newestFirst
        : newestFirst.filter((address) => address !== record.head && chainOf(scan, address).includes(record.head));
    const head = ahead[0];
    if (head !== undefined && record !== undefined && isCrashedStep(scan, head, record, intended.get(thread))) {
      // One step past its record, the step its lease says was about to move the head there: it died first.
      abandoned.push({ address: head, thread, reason: "crashed" });
    } else if (head !== undefined && !deletedHeads.has(head) && (record === undefined || head !== record.head)) {
      found.push(headOf(head, thread, record ?? null));
      claimed.add(thread);
    }
    for (const address of newestFirst) {
      if (address !== head && !held.has(address)) abandoned.push({ address, thread, reason: "superseded" });
    }
  }

  // Tips whose runs do not say who made them, and threads that never stepped.
  const anonymous = [...scan.steps.keys(), ...scan.starts]
    .filter((address) => !continued.has(address) && !held.has(address) && !deletedHeads.has(address))
    .filter((address) => !scan.steps.has(address) || makerOf(scan, address) === null)
    .sort((left, right) => -newer(scan, left, right));
  // Records by head, so each tip's chain is looked up node by node rather than against every record.
  const recordsByHead = new Map<Address, ThreadRecord[]>();
  for (const record of records) {
    if (scan.steps.has(record.head) && makerOf(scan, record.head) !== null) continue; // its own runs decide
    recordsByHead.set(record.head, [...(recordsByHead.get(record.head) ?? []), record]);
  }
  for (const address of anonymous) {
    let behind: ThreadRecord | undefined;
    for (const node of chainOf(scan, address)) {
      if (node === address) continue;
      const candidates = (recordsByHead.get(node) ?? []).filter((record) => !claimed.has(record.id));
      const oldest = candidates.sort((left, right) => (left.id < right.id ? -1 : 1))[0];
      if (oldest !== undefined) behind = oldest; // the deepest recorded head wins
    }
    if (behind !== undefined) claimed.add(behind.id);
    found.push(headOf(address, null, behind ?? null));
  }

  // Read again: a step that took its lease after the first read and is still in flight holds it now, and one
  // that has let go of it since has moved its head, which the roots read after this include.
  const secondCutoff = await findLeaseCutoff(store.refs, leaseOptions);
  const cutoff = Math.min(firstCutoff ?? Number.POSITIVE_INFINITY, secondCutoff ?? Number.POSITIVE_INFINITY);
  const heldNow = holdings(scan, await listStoreRoots(store.refs));
  const heads: UnrecordedHead[] = [];
  const inFlight: UnrecordedHead[] = [];
  // In address order, so what verify and recover report does not depend on the order of a scan.
  found.sort((left, right) => (left.address < right.address ? -1 : left.address > right.address ? 1 : 0));
  for (const head of found) {
    if (head.behind === null ? heldNow.has(head.address) : await movedOn(store, head.behind)) continue;
    const writtenAt = await store.objects.writtenAt(head.address);
    if (writtenAt === null) continue; // deleted since the scan
    (writtenAt >= cutoff ? inFlight : heads).push(head);
  }
  const settled: AbandonedHead[] = [];
  for (const entry of abandoned) {
    const writtenAt = await store.objects.writtenAt(entry.address);
    if (writtenAt !== null && writtenAt < cutoff) settled.push(entry);
  }
  const unrecordedSteps = new Set<Address>();
  for (const head of heads) {
    for (const node of chainOf(scan, head.address))
      if (scan.steps.has(node) && !held.has(node)) unrecordedSteps.add(node);
  }
  return { scan, records, heads, inFlight, abandoned: settled, unrecordedSteps: unrecordedSteps.size };
}

/**
 * Whether `head`, a step of the record's thread past its recorded head, is the node of a step that died
 * between writing it and moving the head: its thread's lease names it as the head that step meant to write,
 * and it continues the record's head directly. A ref store restored from an older copy leaves steps past
 * its records that no lease names (the one exception, a copy taken in that very window, is documented).
 */
function isCrashedStep(scan: ThreadNodeScan, head: Address, record: ThreadRecord, intended: Address | undefined) {
  if (intended !== head) return false;
  const step = scan.steps.get(head);
  return step !== undefined && (step.prev ?? step.start) === record.head;
}

/** Whether a behind thread's record moved since it was read (a step committed meanwhile): it stands. */
async function movedOn(store: Pick<Store, "refs">, behind: ThreadRecord): Promise<boolean> {
  const now = await store.refs.getThread(behind.id);
  return now === null || now.head !== behind.head;
}

/** Every node the chains of these roots hold. */
function holdings(scan: ThreadNodeScan, roots: Iterable<Address>): Set<Address> {
  const held = new Set<Address>();
  for (const root of roots) {
    for (let cursor: Address | null = root; cursor !== null && !held.has(cursor); ) {
      held.add(cursor);
      const step = scan.steps.get(cursor);
      if (step !== undefined) held.add(step.start);
      cursor = step === undefined ? null : (step.prev ?? step.start);
    }
  }
  return held;
}

/** Orders steps newest first: by when they started, then by address so the order is stable. */
function newer(scan: ThreadNodeScan, left: Address, right: Address): number {
  const leftStarted = scan.steps.get(left)?.startedAt ?? "";
  const rightStarted = scan.steps.get(right)?.startedAt ?? "";
  if (leftStarted !== rightStarted) return leftStarted < rightStarted ? 1 : -1;
  return left < right ? -1 : left > right ? 1 : 0;
}
