import type { Store } from "@uwf/cas";
import { type BudgetLimits, mergeBudgetLimits, newThreadBudget, type ThreadRecord } from "@uwf/protocol";
import { HeadConflictError } from "../errors/head-conflict-error.ts";
import { ResumeMismatchError } from "../errors/resume-mismatch-error.ts";
import { SuspendTimeoutError } from "../errors/suspend-timeout-error.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";
import { STEP_LEASE_TTL_MS } from "../lease/step-lease-ttl.ts";
import { withThreadLease } from "../lease/with-thread-lease.ts";

export interface RequeueFailedThreadOptions {
  store: Store;
  threadId: string;
  /** Limits raised as the thread goes back (`uwf resume --queue --max-…`). */
  limits?: Partial<BudgetLimits>;
  host: string;
  now(): Date;
}

/** The thread as it now stands; `requeued: false` when it was not failed, and was left as it was. */
export interface RequeueOutcome {
  requeued: boolean;
  record: ThreadRecord;
}

/**
 * `uwf resume --queue`: a thread a worker set `failed` becomes active again, its failure cleared, and
 * queued for the next worker to claim; no agent runs here. Done under the thread's lease, so no worker
 * claims it half-changed. A thread of any other status is left alone; one that failed because its
 * suspension waited past its `suspendTimeout` is refused (ResumeMismatchError): it needs an answer.
 */
export async function requeueFailedThread(options: RequeueFailedThreadOptions): Promise<RequeueOutcome> {
  const { store, threadId, now } = options;
  return withThreadLease(
    { refs: store.refs, threadId, ttlMs: STEP_LEASE_TTL_MS, host: options.host, now },
    async (lease) => {
      const record = await store.refs.getThread(threadId);
      if (record === null) throw new ThreadNotFoundError(threadId);
      if (record.status !== "failed") return { requeued: false, record };
      // Its suspension waited too long: it needs an answer, which no worker can give.
      if (record.failure?.code === SuspendTimeoutError.code)
        throw new ResumeMismatchError(threadId, { needs: "answer", role: record.next });
      const budget = newThreadBudget(mergeBudgetLimits(options.limits, record.budget));
      const { failure: _cleared, ...kept } = record;
      const changed = {
        status: "active",
        queued: true,
        updatedAt: now().toISOString(),
        ...(budget === undefined ? {} : { budget }),
      } as const;
      lease.assertHeld();
      if (!(await store.refs.updateThread(threadId, record.head, { ...changed, failure: null })))
        throw new HeadConflictError(threadId, record.head, record.head);
      return { requeued: true, record: { ...kept, ...changed } };
    },
  );
}
