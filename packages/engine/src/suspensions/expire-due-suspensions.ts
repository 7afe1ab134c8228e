import type { Store } from "@uwf/cas";
import { type ThreadRecord, UwfError } from "@uwf/protocol";
import { readSuspensionWait } from "../answers/read-suspension-wait.ts";
import { type SettleParentOptions, settleParentAfterBranch } from "../branches/settle-parent.ts";
import { ThreadBusyError } from "../errors/thread-busy-error.ts";
import { ThreadCancelledError } from "../errors/thread-cancelled-error.ts";
import { STEP_LEASE_TTL_MS } from "../lease/step-lease-ttl.ts";
import { withThreadLease } from "../lease/with-thread-lease.ts";
import { timeOutSuspension } from "./time-out-suspension.ts";

/** How many suspended threads one listing reads; a pass pages through all of them. */
const PAGE_SIZE = 500;

export interface ExpireDueSuspensionsOptions extends SettleParentOptions {
  store: Store;
  /** Only threads of this workflow (a registry name), as a worker's `--workflow`. */
  workflow?: string;
  /** Stops the pass between threads (a worker draining). */
  signal?: AbortSignal;
}

/** A suspension whose wait ran out in this pass, and what became of its thread. */
export interface ExpiredSuspension {
  thread: string;
  role: string;
  /** The role (or `$END`) its `$timeout` edge led to; null when it had none and the thread failed (`suspend-timeout`). */
  routed: string | null;
  /** The thread's record as the pass left it. */
  record: ThreadRecord;
}

export interface ExpireDueSuspensionsResult {
  expired: ExpiredSuspension[];
}

/**
 * One pass over the suspended threads (what a worker does each poll round, and `uwf tick` once: one
 * indexed listing, and each workflow and head read once per process, so a pass with nothing due is cheap): each
 * suspended by a role with `suspendTimeout` (not by its budget) whose deadline has come, by the store's
 * clock (PostgreSQL's, so machines agree), is timed out under its lease: a timeout step recorded and
 * routed by the role's `$timeout` edges, or the thread failed with `suspend-timeout` when it has none
 * (see timeOutSuspension). A thread another process holds is left to it; the head's compare-and-swap
 * makes each suspension time out once however many processes look. A branch that stops settles its parent.
 * A thread routed to a role stays queued as it was: workers claim a queued one, `uwf step` steps any.
 */
export async function expireDueSuspensions(options: ExpireDueSuspensionsOptions): Promise<ExpireDueSuspensionsResult> {
  const { store } = options;
  const expired: ExpiredSuspension[] = [];
  const waiting: { record: ThreadRecord; deadline: string }[] = [];
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const { threads } = await store.refs.listThreads({
      status: "suspended",
      ...(options.workflow === undefined ? {} : { workflow: options.workflow }),
      limit: PAGE_SIZE,
      offset,
    });
    for (const record of threads) {
      // A thread whose nodes cannot be read (`uwf cas verify` reports it) is no reason to time out no other.
      const wait = await readSuspensionWait(store.objects, record).catch(() => null);
      if (wait !== null) waiting.push({ record, deadline: wait.deadline });
    }
    if (threads.length < PAGE_SIZE) break;
  }
  // The store's clock (a query on PostgreSQL) only when some suspension has a deadline.
  if (waiting.length === 0) return { expired };
  const now = await store.refs.clock();
  const due = waiting.filter(({ deadline }) => Date.parse(deadline) <= now.getTime());
  // The longest overdue first.
  due.sort((left, right) => left.deadline.localeCompare(right.deadline));
  for (const { record } of due) {
    if (options.signal?.aborted === true) break;
    const done = await expireOne(record.id, now, options);
    if (done !== null) expired.push(done);
  }
  return { expired };
}

async function expireOne(
  threadId: string,
  now: Date,
  options: ExpireDueSuspensionsOptions,
): Promise<ExpiredSuspension | null> {
  const { store } = options;
  let done: ExpiredSuspension | null;
  try {
    done = await withThreadLease(
      { refs: store.refs, threadId, ttlMs: STEP_LEASE_TTL_MS, host: options.host, now: options.now },
      async (lease) => {
        // Read again under the lease: answered, cancelled or timed out meanwhile, it is left as it is.
        const record = await store.refs.getThread(threadId);
        if (record === null || record.status !== "suspended" || lease.cancelRequested()) return null;
        const wait = await readSuspensionWait(store.objects, record);
        if (wait === null || Date.parse(wait.deadline) > now.getTime()) return null;
        lease.assertHeld();
        const timedOut = await timeOutSuspension(store, record, wait, now, options, lease);
        if (timedOut === null) return null;
        return { thread: threadId, role: wait.role, routed: timedOut.routed, record: timedOut.record };
      },
    );
  } catch (error) {
    // Another process holds the thread (a resume answering it, another worker timing it out), or cancels it: theirs.
    const code = UwfError.isInstance(error) ? error.code : null;
    if (code === ThreadBusyError.code || code === ThreadCancelledError.code) return null;
    throw error;
  }
  const parent = done?.record.branchOf?.thread;
  if (done !== null && parent !== undefined && done.record.status !== "active" && done.record.status !== "waiting") {
    await settleParentAfterBranch(parent, options).catch(() => null);
  }
  return done;
}
