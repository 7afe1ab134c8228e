import type {
  Address,
  EvalReportEntry,
  Lease,
  Schedule,
  ThreadFailure,
  ThreadOutcome,
  ThreadRecord,
  ThreadStatus,
  WorkflowEntry,
} from "@uwf/protocol";

export interface ListThreadsQuery {
  status?: ThreadStatus;
  workflow?: string;
  /** Only the ended threads whose outcome's `$status` is this (`list --outcome`). */
  outcome?: string;
  /**
   * Only the forks whose lineage names this thread as their parent (`forkedFrom.thread`), and with
   * `recursive` their forks too, at any depth. Forks that recorded only their address are not found.
   */
  forksOf?: { thread: string; recursive?: boolean };
  /** Only the threads that start at this start node (every thread of a family shares it). */
  start?: Address;
  /**
   * Only the threads whose `updatedAt` is this ISO 8601 time or later (compared as text, which for
   * `toISOString` times is time order; an index serves it): what a change feed re-reads after a change
   * signal instead of every thread. `updatedAt` is the writing process's clock, so a reader re-reads a
   * window before the newest time it saw (see the engine's watchStore).
   */
  updatedSince?: string;
  /** Only the threads this schedule started (`scheduledBy.schedule`, `list --schedule`); an index serves it. */
  scheduledBy?: string;
  /** False leaves out the forks an exploration made (`exploredBy`); absent or true keeps them. */
  explorations?: boolean;
  /**
   * Only the threads whose `deadline` is this ISO 8601 time or earlier (compared as text, time order for
   * `toISOString` times): what due work must look at now. An index of the deadlines serves it, so the cost
   * does not grow with the threads that wait without one, or whose deadline is later.
   */
  dueBy?: string;
  limit?: number;
  offset?: number;
}

/** How `watchChanges` watches: `pollMs`, for a backend that polls (SQLite), how often; default 100. */
export interface WatchChangesOptions {
  pollMs?: number;
}

/** Stops a watch: once it resolves, `onChange` is not called again. */
export type StopWatchingChanges = () => Promise<void>;

export interface ListThreadsResult {
  threads: ThreadRecord[];
  /** How many threads match the filters, ignoring limit and offset. */
  total: number;
}

export interface ListEvalReportsQuery {
  /** Only the reports of this name (a suite's name, or the label of a selection), compared exactly. */
  name?: string;
  limit?: number;
  offset?: number;
}

export interface ListEvalReportsResult {
  reports: EvalReportEntry[];
  /** How many reports match the name, ignoring limit and offset. */
  total: number;
}

export interface AcquireLeaseOptions {
  ttlMs: number;
  pid: number;
  host: string;
  now: Date;
  /** When the holder's process started (see `Lease.processStart`); default null. */
  processStart?: string | null;
  /**
   * The token of a holder the caller found dead (a process of its own host that is gone): its lease
   * is taken over though it has not expired, provided that holder still holds it.
   */
  takeOver?: string;
}

export type AcquireLeaseResult =
  | {
      acquired: true;
      lease: Lease;
      /** The lease this one replaced (expired, or named by `takeOver`), so the caller can clean up after it; null when the thread had none. */
      replaced: Lease | null;
    }
  | { acquired: false; holder: Lease };

/** The agent a lease's holder runs: its process group, whose leader is the agent, and when that started. */
export interface LeaseAgent {
  group: number;
  start: string | null;
}

/** A thread `uwf delete` removed: its id and the head it had then, so gc and recover know it went on purpose. */
export interface DeletedThread {
  id: string;
  head: Address;
  /** ISO 8601. */
  deletedAt: string;
}

/** Fields of a thread record that an update may change; `failure: null` removes the failure. */
export type ThreadUpdate = Partial<
  Omit<ThreadRecord, "id" | "createdAt" | "start" | "recoveredFrom" | "failure" | "outcome" | "deadline">
> & {
  /** null removes it. */
  failure?: ThreadFailure | null;
  /** null removes it. */
  outcome?: ThreadOutcome | null;
  /** null removes it; an update that sets `status` without it removes it too (see `ThreadRecord.deadline`). */
  deadline?: string | null;
};

/** What `claimThread` asks for: the lease's holder as in `acquireLease`, and which threads it will take. */
export interface ClaimThreadOptions extends Omit<AcquireLeaseOptions, "takeOver"> {
  /** Only threads of this workflow (registry name). */
  workflow?: string;
}

/** A thread claimed for a worker: its record as it was claimed, and the lease the worker now holds. */
export interface ClaimedThread {
  thread: ThreadRecord;
  lease: Lease;
  /** The expired lease this one replaced (its holder died or hung), so the caller can clean up after it; null when none. */
  replaced: Lease | null;
}

/**
 * A branch's place under its parent (DESIGN §4, fan-out): the parent thread, the number of its step that
 * fanned out, the branch's key and its position among that step's branches, and the branch's thread. A
 * parent's fork shares the links of branches it did not replace, so a thread may be linked under more
 * than one parent; its record's `branchOf` names the parent it was made for.
 */
export interface BranchLink {
  parent: string;
  step: number;
  key: string;
  index: number;
  thread: string;
  /** ISO 8601. */
  createdAt: string;
}

/** A link to make, with the branch's new thread record; without a record the link names a thread that exists. */
export interface NewBranch {
  link: BranchLink;
  record?: ThreadRecord;
}

/** A thread-step node as the ref store caches it for chain reads (see `RefStore.recallChain`). */
export interface ChainLink {
  address: Address;
  /** The address this step follows: its `prev`, or for a first step its start node. */
  prev: Address;
  /** The node's canonical bytes, which hash to `address`. */
  bytes: Uint8Array;
}

/**
 * A thread's chain as a step needs it up front: its start node and each step's address and role,
 * oldest first. The chain ends at its newest step's address (or at the start, with no steps).
 */
export interface ChainIndex {
  start: Address;
  steps: readonly ChainIndexStep[];
}

export interface ChainIndexStep {
  address: Address;
  role: string;
}

/** Fields of a schedule that `updateSchedule` may change (pause, resume, a new time). */
export type ScheduleUpdate = Partial<Omit<Schedule, "name" | "createdAt">>;

/**
 * One fire of a schedule (see `RefStore.fireSchedule`): the compare-and-swap that moves its next fire time
 * from `expectedNextFireAt` to `nextFireAt`, and the thread it starts, if any.
 */
export interface FireSchedule {
  name: string;
  /** The next fire time the caller read (null: a paused schedule, fired by `uwf schedule trigger`). */
  expectedNextFireAt: string | null;
  /** When given, the swap also needs the schedule's `buffered` to be this (a buffered fire started once). */
  expectedBuffered?: string | null;
  /** The next fire time after this fire (null: never again). */
  nextFireAt: string | null;
  /** The fire time this fire is for: the thread's `scheduledBy.fireTime`, and the schedule's `lastFireAt` when a thread starts. */
  fireTime: string;
  /** `buffer-one`: the fire time to hold back (null clears it); absent leaves it as it is. */
  buffered?: string | null;
  /** The thread to create (its `scheduledBy` names this schedule and fire), or null to advance without one. */
  thread: ThreadRecord | null;
  /** The schedule's new `updatedAt` (ISO 8601). */
  updatedAt: string;
}

/**
 * The only mutable state: thread records, branch links, the workflow registry, step leases and the index of
 * evaluation reports (plus caches of chains).
 */
export interface RefStore {
  /** Inserts a new record; throws when the id exists. */
  createThread(record: ThreadRecord): Promise<void>;
  /**
   * Inserts several new records in one transaction: all of them, or none when one fails (an id that
   * exists: ThreadExistsError). What `fork --count` writes its forks with, a batch at a time, so a
   * process killed meanwhile leaves whole batches.
   */
  createThreads(records: readonly ThreadRecord[]): Promise<void>;
  getThread(id: string): Promise<ThreadRecord | null>;
  /**
   * Links branches to their parent's step, in one transaction: each link whose (parent, step, key) is not
   * stored yet is inserted, with its record when it has one; a link already stored is kept as it is and
   * its record is not inserted. So a fan-out's branches are made once however many processes make them,
   * and a crash leaves all of a call's links or none. Returns the stored links of every (parent, step)
   * the entries name, as listBranches does. ThreadExistsError (nothing changed) when a new link's record
   * has an id that exists.
   */
  createBranches(entries: readonly NewBranch[]): Promise<BranchLink[]>;
  /** The links under a parent: of its step `step`, or of every step; by step, then index. */
  listBranches(parent: string, step?: number): Promise<BranchLink[]>;
  /** Every branch link, by parent, then step, then index: what `uwf store copy` copies them with. */
  listAllBranches(): AsyncIterable<BranchLink>;
  /** Ids starting with `prefix` (case-insensitive), in id order, at most `limit` of them. */
  findThreadIds(prefix: string, limit: number): Promise<string[]>;
  /** Newest first (by id, which is time-ordered). `limit` and `offset` must be non-negative integers. */
  listThreads(query: ListThreadsQuery): Promise<ListThreadsResult>;
  /**
   * Compare-and-swap: applies `update` only when the stored head is still `expectedHead`.
   * Returns false (and changes nothing) on a conflict, or when there is no such thread.
   */
  updateThread(id: string, expectedHead: Address, update: ThreadUpdate): Promise<boolean>;
  /**
   * Heads, start nodes, fork points (`forkedFrom`) and branch points (`branchOf`, the parent's fan-out
   * step) of every thread, and the workflow of a fork onto another version: the roots `gc` keeps.
   */
  listThreadRoots(): AsyncIterable<Address>;
  /**
   * Removes a thread's record, its chain index and its branch links as a parent (its branches' records
   * stay: they are threads of their own), and remembers the thread as deleted (its id and
   * head) in the same transaction, so `gc` collects its nodes without taking them for a lost thread
   * and `recover` does not bring it back. Compare-and-swap like updateThread: false, changing
   * nothing, when the head moved or there is no such thread.
   */
  deleteThread(id: string, expectedHead: Address, deletedAt: Date): Promise<boolean>;
  /**
   * Every thread deleted so far, in id order. Kept for good: a few bytes a thread. With `deletedSince`
   * (ISO 8601), only those whose `deletedAt` is that time or later.
   */
  listDeletedThreads(query?: { deletedSince?: string }): Promise<DeletedThread[]>;
  /** Remembers threads deleted elsewhere (`uwf store copy`), keeping an entry already there; records are not touched. */
  rememberDeletedThreads(entries: readonly DeletedThread[]): Promise<void>;

  /**
   * The store's time: PostgreSQL's clock (`now()`), so processes on several machines agree on when a
   * suspension's deadline or a schedule's fire time has come; this machine's clock for the embedded and
   * memory stores, which only this machine's processes share.
   */
  clock(): Promise<Date>;

  /** Inserts a new schedule; ScheduleExistsError (nothing changed) when its name is taken. */
  createSchedule(schedule: Schedule): Promise<void>;
  /** Inserts or replaces a schedule by name (a workflow's `schedule:`, `uwf store copy`). */
  putSchedule(schedule: Schedule): Promise<void>;
  getSchedule(name: string): Promise<Schedule | null>;
  /** Every schedule, by name. */
  listSchedules(): Promise<Schedule[]>;
  /**
   * Compare-and-swap on the schedule's `updatedAt`: applies `update` only when the stored schedule's
   * `updatedAt` is still `expectedUpdatedAt`; false (nothing changed) on a conflict or no such schedule.
   */
  updateSchedule(name: string, expectedUpdatedAt: string, update: ScheduleUpdate): Promise<boolean>;
  /** Removes a schedule (the threads it started stay); false when there is none. */
  deleteSchedule(name: string): Promise<boolean>;
  /**
   * Fires a schedule, in one transaction: when its next fire time is still `expectedNextFireAt` (and its
   * `buffered` is `expectedBuffered`, when given), moves it to `nextFireAt`, sets `buffered` when given,
   * and with a `thread` creates that record and sets `lastFireAt` and `lastThread`. False, changing
   * nothing, when another process moved it first (or the schedule is gone): so each fire time starts at
   * most one thread however many processes fire it. The thread's start node must be stored before.
   */
  fireSchedule(fire: FireSchedule): Promise<boolean>;

  getWorkflow(name: string): Promise<WorkflowEntry | null>;
  setWorkflow(entry: WorkflowEntry): Promise<void>;
  listWorkflows(): Promise<WorkflowEntry[]>;

  /**
   * Inserts an evaluation report's entry: its id, the `eval-report/1` node that holds the report, the
   * suite's name or a label of the selection, and when it was made. The node is immutable; the entry is
   * what finds it, and what makes it (and every thread head it names) a root `gc` keeps. Throws
   * EvalReportExistsError when the id exists, changing nothing; InvalidRecordError on an entry that
   * breaks evalReportEntrySchema.
   */
  saveEvalReport(entry: EvalReportEntry): Promise<void>;
  /** The entry of this id (exactly as stored: upper case), or null when there is none. */
  getEvalReport(id: string): Promise<EvalReportEntry | null>;
  /** Report ids starting with `prefix` (case-insensitive), in id order, at most `limit` of them. */
  findEvalReportIds(prefix: string, limit: number): Promise<string[]>;
  /**
   * Newest first (by id, which is time-ordered), with the total that match; every report when `query` is
   * empty. `limit` and `offset` must be non-negative integers.
   */
  listEvalReports(query: ListEvalReportsQuery): Promise<ListEvalReportsResult>;
  /** Removes a report's entry (its node stays, for gc to collect once unreachable); false when there is none. */
  deleteEvalReport(id: string): Promise<boolean>;

  /**
   * Takes a thread's step lease unless another holder has it: an expired lease is taken over, and so
   * is the lease of the holder `takeOver` names. The new lease records no agent.
   */
  acquireLease(threadId: string, options: AcquireLeaseOptions): Promise<AcquireLeaseResult>;
  /**
   * Takes the step lease of one runnable thread for a worker: status `active`, `queued`, of
   * `options.workflow` when given, and with no lease or an expired one; the oldest (by id) first.
   * Choosing and taking are one atomic operation, so concurrent claimers, in any process, never get
   * the same thread, and none waits on a thread another is claiming. Null when no thread is runnable.
   */
  claimThread(options: ClaimThreadOptions): Promise<ClaimedThread | null>;
  /**
   * Extends a lease this holder still owns: the lease as it now stands (its `cancelRequestedAt` tells
   * the holder that `uwf cancel` asked it to stop); null when it was lost.
   */
  renewLease(lease: Lease, ttlMs: number, now: Date): Promise<Lease | null>;
  /** Records the agent this holder runs now (null: none) in a lease it still owns; false when it was lost. */
  recordLeaseAgent(lease: Lease, agent: LeaseAgent | null): Promise<boolean>;
  /**
   * Records, in a lease this holder still owns, the head its step is about to move the thread to
   * (`intendedHead`), before the step node is written; false when the lease was lost. A holder that dies
   * before moving the head leaves it there: the step's leftovers, not a lost head.
   */
  recordLeaseHead(lease: Lease, head: Address): Promise<boolean>;
  /**
   * Releases a lease if this holder (token) still owns it: the lease as it stood when released, so the
   * holder learns of a cancel request made since it last renewed; null when it no longer held it. A lease
   * whose `intendedHead` is set and is not its thread's head (a dead holder's step, inherited with the
   * lease, that no later step settled) is not deleted but left expired, held by no process (pid 0), so
   * `verify` and `gc` still know that head for a crashed step's; the thread's next lease takes it over.
   */
  releaseLease(lease: Lease): Promise<Lease | null>;
  /**
   * Asks the holder of a thread's unexpired lease to stop and cancel the thread: the request is kept on
   * the lease (an earlier request's time stays) until its holder releases it, and a lease taken over
   * keeps it. Returns that lease, request included; null when no unexpired lease is held, so the caller
   * can take the lease and cancel the thread itself.
   */
  requestCancel(threadId: string, now: Date): Promise<Lease | null>;
  /**
   * Every lease held, expired or not, in thread id order: what `gc` and `recover` read to spare
   * what steps in flight are writing (see findLeaseCutoff).
   */
  listLeases(): Promise<Lease[]>;

  /**
   * Caches thread-step nodes, so that a long chain reads in one query instead of one object
   * read per step. A cache of immutable nodes, never a source of truth: a link is right for as
   * long as its node exists, readers re-hash what they recall, and `gc` forgets the links of the
   * nodes it deletes. A link cached again is rewritten, so a damaged one heals when re-read.
   */
  rememberChainLinks(links: readonly ChainLink[]): Promise<void>;
  /** The cached links from `head` back along `prev`, newest first, as far as they are cached; [] when `head` is not. */
  recallChain(head: Address): Promise<ChainLink[]>;
  /** Drops the cached links of these addresses; addresses not cached are ignored. */
  forgetChainLinks(addresses: readonly Address[]): Promise<void>;

  /**
   * Keeps a thread's chain index, replacing the one it had: one per thread, so a step on a long
   * thread knows its chain from one row. Derived data, never a source of truth: readers use it
   * only while it ends at the thread's head and agrees with the head node, and rebuild it from the
   * chain otherwise.
   */
  rememberChainIndex(threadId: string, index: ChainIndex): Promise<void>;
  /**
   * Appends steps to the thread's chain index if it ends at `head`, without rewriting it from the
   * caller; false, changing nothing, when it ends elsewhere or there is none (remember it whole then).
   */
  extendChainIndex(threadId: string, head: Address, steps: readonly ChainIndexStep[]): Promise<boolean>;
  /** The thread's chain index as last remembered, or null when there is none (or it is unreadable). */
  recallChainIndex(threadId: string): Promise<ChainIndex | null>;
  /** The ids of the threads that have a chain index (readable or not), in id order: what `verify` and `gc` check. */
  listChainIndexedThreads(): AsyncIterable<string>;
  /** Drops a thread's chain index, so its next step walks the chain and writes the index again; none is not an error. */
  forgetChainIndex(threadId: string): Promise<void>;

  /**
   * The store's change signal: calls `onChange` soon after any process, this one included, changed a
   * thread record (created, updated, deleted), a lease or an evaluation report; it may also call it
   * for other writes (a chain cache, the registry) and calls it once for many changes made close
   * together. It says only that something changed: the caller reads what (`listThreads` with
   * `updatedSince`, `listLeases`). Cheap while nothing changes: memory calls it on its own writes;
   * SQLite compares `PRAGMA data_version` (which moves when another connection commits) every
   * `pollMs` (five times as often for 2 s after a change: writes come in bursts) and calls it at once
   * on this store's own writes; PostgreSQL listens for the
   * notification its tables' triggers send (`LISTEN uwf_changes`). Resolves once watching, so a
   * change committed after that is signalled; `onChange` must not throw.
   */
  watchChanges(onChange: () => void, options?: WatchChangesOptions): Promise<StopWatchingChanges>;
}

/** The ref store's schedule methods: what each backend's schedule file makes. */
export type ScheduleMethods = Pick<
  RefStore,
  | "createSchedule"
  | "putSchedule"
  | "getSchedule"
  | "listSchedules"
  | "updateSchedule"
  | "deleteSchedule"
  | "fireSchedule"
>;
