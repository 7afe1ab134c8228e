import type { Address, Lease, ThreadRecord } from "@uwf/protocol";

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

/** What `claimThread` asks for: the lease's holder as in `acquireLease`, and which threads it will take. */
export interface ClaimThreadOptions extends Omit<AcquireLeaseOptions, "takeOver"> {
  /** Only threads of this workflow (registry name). */
  workflow?: string;
  /** Threads not to claim, runnable or not (a worker's threads whose agent is misconfigured). */
  skip?: readonly string[];
}

/** A thread claimed for a worker: its record as it was claimed, and the lease the worker now holds. */
export interface ClaimedThread {
  thread: ThreadRecord;
  lease: Lease;
  /** The expired lease this one replaced (its holder died or hung), so the caller can clean up after it; null when none. */
  replaced: Lease | null;
}

/** Step leases and worker claims: who may step a thread now. */
export interface LeaseRefs {
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
   * Deletes a lease row whatever it holds, if its token is still `lease.token` (no holder took it since):
   * what `gc` does with the rows of crashed steps that nothing may still commit under. False when the
   * row is gone or was taken over.
   */
  forgetLease(lease: Pick<Lease, "threadId" | "token">): Promise<boolean>;
}
