import type { Store } from "@uwf/cas";
import { type ThreadRecord, UwfError } from "@uwf/protocol";
import { readSuspensionWait } from "../answers/read-suspension-wait.ts";
import type { SettleParentOptions } from "../branches/settle-parent.ts";
import { ThreadBusyError } from "../errors/thread-busy-error.ts";
import { ThreadCancelledError } from "../errors/thread-cancelled-error.ts";
import { STEP_LEASE_TTL_MS } from "../lease/step-lease-ttl.ts";

/** How many suspended threads one listing reads; a pass pages through all of them. */
const PAGE_SIZE = 500;

export interface ExpireDueSuspensionsOptions extends SettleParentOptions {
  store: Store;
  /** Only threads of this workflow (a registry name), as a worker's `--workflow`. */
  workflow?: string;
  /** Stops the pass between threads (a worker draining). */
  signal?: AbortSignal;
  /** The time the pass takes as now instead of the store's clock (`uwf tick --at`). */
  at?: Date;
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
 * One pass over the suspended threads whose deadline has come, by the store's clock (PostgreSQL's, so
 * machines agree): what a worker does each poll round, and `uwf tick` once. The ref store indexes each
 * suspended thread's deadline (set by the step that suspended it), so a pass with nothing due is one
 * indexed query, whatever the number of threads that wait. Each thread due, suspended by a role with
 * `suspendTimeout` (not by its budget), is timed out under its lease: a timeout step recorded and routed
 * by the role's `$timeout` edges, or the thread failed with `suspend-timeout` when it has none (see
 * timeOutSuspension). A deadline not yet known (DUE_AT_ONCE: a fork, a recovered record, a thread
 * suspended before deadlines were kept) is read from the head and the workflow once, and stored, or
 * removed when the suspension has no wait. A thread another process holds is left to it; the head's
 * compare-and-swap makes each suspension time out once however many processes look. A branch that stops
 * settles its parent. A thread routed to a role stays queued as it was: workers claim a queued one,
 * `uwf step` steps any.
 */
export async function expireDueSuspensions(options: ExpireDueSuspensionsOptions): Promise<ExpireDueSuspensionsResult> {
  const { store } = options;
  const expired: ExpiredSuspension[] = [];
  const now = options.at ?? (await store.refs.clock());
  const due: { record: ThreadRecord; deadline: string }[] = [];
  // Read whole before anything changes: timing a thread out takes it out of the listing.
  const listed: ThreadRecord[] = [];
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const { threads } = await store.refs.listThreads({
      status: "suspended",
      dueBy: now.toISOString(),
      ...(options.workflow === undefined ? {} : { workflow: options.workflow }),
      limit: PAGE_SIZE,
      offset,
    });
    listed.push(...threads);
    if (threads.length < PAGE_SIZE) break;
  }
  for (const record of listed) {
    // A thread whose nodes cannot be read (`uwf cas verify` reports it) is no reason to time out no other.
    const wait = await readSuspensionWait(store.objects, record).catch(() => undefined);
    if (wait === undefined) continue;
    if (wait !== null && Date.parse(wait.deadline) <= now.getTime()) {
      due.push({ record, deadline: wait.deadline });
      continue;
    }
    // Not due after all: the deadline was not known yet. Kept for the next pass (a lost race changes nothing).
    await store.refs.updateThread(record.id, record.head, { deadline: wait?.deadline ?? null }).catch(() => false);
  }
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
  // Loaded only when a suspension is due: routing, the step's writes and branches are most of the engine,
  // which a pass with nothing due (every `uwf tick` and idle worker round) has no use for.
  const [{ withThreadLease }, { timeOutSuspension }, { settleParentAfterBranch }] = await Promise.all([
    import("../lease/with-thread-lease.ts"),
    import("./time-out-suspension.ts"),
    import("../branches/settle-parent.ts"),
  ]);
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
