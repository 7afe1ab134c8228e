import type { Address, EvalReportEntry, Schedule, StoreCopyReport, ThreadRecord, WorkflowEntry } from "@uwf/protocol";
import { readEveryObject } from "../objects/read-every-object.ts";
import type { BranchLink } from "../refs/branch-refs.ts";
import type { ThreadUpdate } from "../refs/thread-refs.ts";
import type { Store } from "../store.ts";

export interface CopyStoreOptions {
  /** Nodes written per batch; default 500. */
  batchSize?: number;
  /** Told after each batch of objects, and once per phase. */
  onProgress?(phase: "objects" | "workflows" | "threads" | "eval-reports" | "verify", done: number): void;
}

/**
 * Copies one store into another, for moving a home into a shared server: every object (unreachable
 * ones too: gc decides about those, not a copy), then the workflow registry, then the thread records
 * (so a record never names a node the target lacks) and the threads deleted (a record the target still
 * has at the head it was deleted at is deleted there too), then the branch links (a link the target
 * holds for another thread is kept and reported), then chain indexes, then the evaluation
 * reports' entries, then the schedules (one the target changed later is kept); never leases or the chain-link cache, which the target rebuilds. Idempotent: nodes
 * already there are not written again (their write times stay as they are), and a record already there
 * is left alone unless the source's is further along the same chain (updated with a compare-and-swap)
 * or the same head was changed later (a cancel, say). A thread whose chains have parted in the two
 * stores is left as the target has it and reported, and so is a report id the target holds for another
 * report (entries never change; one deleted from the target is copied again). Ends by checking that the
 * target holds every object read and every record and report entry as copied.
 */
export async function copyStore(
  source: Store,
  target: Store,
  options: CopyStoreOptions = {},
): Promise<StoreCopyReport> {
  const batchSize = options.batchSize ?? 500;
  const report: StoreCopyReport = {
    objects: { read: 0, written: 0 },
    workflows: { copied: 0, unchanged: 0, kept: 0 },
    schedules: { copied: 0, unchanged: 0, kept: 0 },
    threads: { created: 0, updated: 0, unchanged: 0, kept: 0 },
    chainIndexes: 0,
    evalReports: { copied: 0, unchanged: 0 },
    busy: [],
    problems: [],
  };

  // One listing of the target rather than a lookup per node (on a server, a million round trips):
  // a node it holds is not put again, as a put refreshes its write time, and a copy that changes
  // nothing must not make every object look new to the target's gc.
  const heldBefore = await listAddresses(target);
  const copied: Address[] = [];
  let batch: unknown[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    copied.push(...(await target.objects.putMany(batch, { durable: true })));
    report.objects.written += batch.length;
    batch = [];
    options.onProgress?.("objects", report.objects.written);
  };
  for await (const object of readEveryObject(source.objects)) {
    report.objects.read++;
    if (object.corrupt !== null) {
      report.problems.push({ kind: "corrupt", subject: object.address, message: object.corrupt.message });
      continue;
    }
    if (heldBefore.has(object.address)) copied.push(object.address);
    else {
      batch.push(object.node);
      if (batch.length >= batchSize) await flush();
    }
  }
  await flush();

  for (const entry of await source.refs.listWorkflows()) {
    const outcome = await copyWorkflow(target, entry);
    report.workflows[outcome]++;
  }
  options.onProgress?.("workflows", report.workflows.copied);

  const now = Date.now();
  const live = new Set(
    (await source.refs.listLeases())
      .filter((lease) => Date.parse(lease.expiresAt) > now)
      .map((lease) => lease.threadId),
  );
  const { threads } = await source.refs.listThreads({});
  for (const record of threads.reverse()) {
    if (live.has(record.id)) report.busy.push(record.id);
    const outcome = await copyThread(source, target, record);
    if (outcome !== "diverged") await copySearchAndOutput(source, target, record.id);
    if (outcome === "diverged") {
      report.problems.push({
        kind: "diverged",
        subject: record.id,
        message: `thread ${record.id} has other steps in the target than in the source; the target's record was kept`,
      });
    } else report.threads[outcome]++;
  }
  // Deleted threads stay deleted there: gc collects their nodes, recover does not bring them back.
  const deleted = await source.refs.listDeletedThreads();
  for (const entry of deleted) {
    await target.refs.deleteThread(entry.id, entry.head, new Date(entry.deletedAt));
  }
  await target.refs.rememberDeletedThreads(deleted);
  // After the threads, which the links name; after the deletions, which drop their links as parents.
  for (const group of await listBranchGroups(source)) {
    const stored = await target.refs.createBranches(group.map((link) => ({ link })));
    report.problems.push(...divergedBranches(group, stored));
  }
  options.onProgress?.("threads", threads.length);

  for await (const threadId of source.refs.listChainIndexedThreads()) {
    const index = await source.refs.recallChainIndex(threadId, { details: true });
    const copiedRecord = await target.refs.getThread(threadId);
    const sourceRecord = await source.refs.getThread(threadId);
    // Only where the target's thread is the source's: an index is trusted only where it ends at the head.
    if (index === null || copiedRecord === null || sourceRecord === null || copiedRecord.head !== sourceRecord.head) {
      continue;
    }
    await target.refs.rememberChainIndex(threadId, index);
    report.chainIndexes++;
  }

  // Oldest first, as they were made; after the threads, whose heads the reports name.
  const { reports } = await source.refs.listEvalReports({});
  for (const entry of reports.toReversed()) {
    const outcome = await copyEvalReport(target, entry);
    if (outcome === "diverged") {
      report.problems.push({
        kind: "diverged",
        subject: entry.id,
        message: `eval report ${entry.id} differs in the target (its node, name or time); the target's entry was kept`,
      });
    } else report.evalReports[outcome]++;
  }
  options.onProgress?.("eval-reports", report.evalReports.copied);

  // After the threads they name (`lastThread`): a schedule copied fires in the target from where it stood.
  for (const schedule of await source.refs.listSchedules()) {
    report.schedules[await copySchedule(target, schedule)]++;
  }

  const held = await listAddresses(target);
  let verified = 0;
  for (const address of copied) {
    if (!held.has(address)) {
      report.problems.push({ kind: "missing", subject: address, message: `node ${address} is not in the target` });
    }
    verified++;
  }
  for (const record of threads) {
    if ((await target.refs.getThread(record.id)) === null) {
      report.problems.push({
        kind: "missing",
        subject: record.id,
        message: `thread ${record.id} is not in the target`,
      });
    }
  }
  for (const entry of reports) {
    if ((await target.refs.getEvalReport(entry.id)) === null) {
      report.problems.push({
        kind: "missing",
        subject: entry.id,
        message: `eval report ${entry.id} is not in the target`,
      });
    }
  }
  options.onProgress?.("verify", verified);
  return report;
}

/** Every branch link of the store, in the fan-outs they belong to: one list for each (parent, step). */
async function listBranchGroups(store: Store): Promise<BranchLink[][]> {
  const groups = new Map<string, BranchLink[]>();
  for await (const link of store.refs.listAllBranches()) {
    const key = JSON.stringify([link.parent, link.step]);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [link]);
    else group.push(link);
  }
  return [...groups.values()];
}

/** The source's links the target holds for another thread (links never change; the target's is kept). */
function divergedBranches(source: readonly BranchLink[], stored: readonly BranchLink[]): StoreCopyReport["problems"] {
  const threadOf = new Map(stored.map((link) => [link.key, link.thread]));
  return source.flatMap((link) => {
    const held = threadOf.get(link.key);
    if (held === link.thread) return [];
    return [
      {
        kind: held === undefined ? ("missing" as const) : ("diverged" as const),
        subject: link.parent,
        message:
          held === undefined
            ? `branch ${link.key} of thread ${link.parent}'s step ${link.step} is not in the target`
            : `branch ${link.key} of thread ${link.parent}'s step ${link.step} is thread ${held} in the target, ` +
              `${link.thread} in the source; the target's link was kept`,
      },
    ];
  });
}

async function listAddresses(store: Store): Promise<Set<Address>> {
  const addresses = new Set<Address>();
  for await (const address of store.objects.list()) addresses.add(address);
  return addresses;
}

async function copySchedule(target: Store, schedule: Schedule): Promise<"copied" | "unchanged" | "kept"> {
  const existing = await target.refs.getSchedule(schedule.name);
  if (existing !== null && JSON.stringify(existing) === JSON.stringify(schedule)) return "unchanged";
  if (existing !== null && Date.parse(existing.updatedAt) > Date.parse(schedule.updatedAt)) return "kept";
  await target.refs.putSchedule(schedule);
  return "copied";
}

async function copyWorkflow(target: Store, entry: WorkflowEntry): Promise<"copied" | "unchanged" | "kept"> {
  const existing = await target.refs.getWorkflow(entry.name);
  if (existing !== null && existing.address === entry.address) return "unchanged";
  // A name the target pointed elsewhere later than the source did stays as the target has it.
  if (existing !== null && Date.parse(existing.updatedAt) > Date.parse(entry.updatedAt)) return "kept";
  await target.refs.setWorkflow(entry);
  return "copied";
}

async function copyEvalReport(target: Store, entry: EvalReportEntry): Promise<"copied" | "unchanged" | "diverged"> {
  const existing = await target.refs.getEvalReport(entry.id);
  if (existing === null) {
    await target.refs.saveEvalReport(entry);
    return "copied";
  }
  const same =
    existing.address === entry.address && existing.name === entry.name && existing.createdAt === entry.createdAt;
  return same ? "unchanged" : "diverged";
}

type ThreadOutcome = "created" | "updated" | "unchanged" | "kept" | "diverged";

async function copyThread(source: Store, target: Store, record: ThreadRecord): Promise<ThreadOutcome> {
  const existing = await target.refs.getThread(record.id);
  if (existing === null) {
    await target.refs.createThread(record);
    return "created";
  }
  if (JSON.stringify(sortedRecord(existing)) === JSON.stringify(sortedRecord(record))) return "unchanged";
  const sourceIsAhead =
    existing.head === record.head
      ? Date.parse(record.updatedAt) > Date.parse(existing.updatedAt)
      : await followsFrom(source, record.head, existing.head);
  if (sourceIsAhead) {
    return (await target.refs.updateThread(record.id, existing.head, updateFrom(record))) ? "updated" : "diverged";
  }
  if (existing.head === record.head || (await followsFrom(target, existing.head, record.head))) return "kept";
  return "diverged";
}

/** A thread's search words and its steps' stored output, added to the target's (what is there stays). */
async function copySearchAndOutput(source: Store, target: Store, threadId: string): Promise<void> {
  const words = await source.refs.listThreadWords(threadId);
  if (words.length > 0) await target.refs.indexThreadText(threadId, [words.join(" ")]);
  let after = { step: 0, seq: 0 };
  for (;;) {
    const chunks = await source.refs.readStepOutput(threadId, { after });
    const last = chunks.at(-1);
    if (last === undefined) return;
    await target.refs.appendStepOutput(threadId, chunks);
    after = { step: last.step, seq: last.seq };
  }
}

/** Whether `ancestor` is on the chain behind `head` (following `prev`, then the start node). */
async function followsFrom(store: Store, head: Address, ancestor: Address): Promise<boolean> {
  let address: Address | null = head;
  const seen = new Set<Address>();
  while (address !== null && !seen.has(address)) {
    if (address === ancestor) return true;
    seen.add(address);
    if (!(await store.objects.has(address))) return false;
    const node = (await store.objects.get(address)) as { type?: string; prev?: Address | null; start?: Address };
    if (node.type !== "thread-step/1") return false;
    address = node.prev ?? node.start ?? null;
  }
  return false;
}

function updateFrom(record: ThreadRecord): ThreadUpdate {
  const {
    id: _id,
    createdAt: _created,
    start: _start,
    recoveredFrom: _recovered,
    failure,
    outcome,
    ...update
  } = record;
  return { ...update, failure: failure ?? null, outcome: outcome ?? null };
}

function sortedRecord(record: ThreadRecord): [string, unknown][] {
  return Object.entries(record).sort(([left], [right]) => (left < right ? -1 : 1));
}
