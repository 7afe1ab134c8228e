import type { Address, ThreadFailure, ThreadOutcome, ThreadRecord, ThreadStatus } from "@uwf/protocol";

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

export interface ListThreadsResult {
  threads: ThreadRecord[];
  /** How many threads match the filters, ignoring limit and offset. */
  total: number;
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

/** Thread records: create, read, list, compare-and-swap, delete, and the roots `gc` keeps. */
export interface ThreadRefs {
  /** Inserts a new record; throws when the id exists. */
  createThread(record: ThreadRecord): Promise<void>;
  /**
   * Inserts several new records in one transaction: all of them, or none when one fails (an id that
   * exists: ThreadExistsError). What `fork --count` writes its forks with, a batch at a time, so a
   * process killed meanwhile leaves whole batches.
   */
  createThreads(records: readonly ThreadRecord[]): Promise<void>;
  getThread(id: string): Promise<ThreadRecord | null>;
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
}
