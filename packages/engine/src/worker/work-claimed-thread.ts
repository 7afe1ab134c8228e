import type { ClaimedThread, Store } from "@uwf/cas";
import { type CliEvent, type Config, isUwfError, type THREAD_RELEASE_REASONS, type ThreadRecord } from "@uwf/protocol";
import { type SettleParentOptions, settleParent, settleParentAfterBranch } from "../branches/settle-parent.ts";
import { AgentFailedError } from "../errors/agent-failed-error.ts";
import { classifyStepFailure } from "../errors/classify-step-failure.ts";
import { LeaseLostError } from "../errors/lease-lost-error.ts";
import { holdLease, honourCancelRequest, type LeaseHold, stopReplacedAgent } from "../lease/with-thread-lease.ts";
import { describeFailure, failThread } from "../step/fail-thread.ts";
import type { StepStart } from "../step/run-step-agent.ts";
import { stepThread } from "../step/step-thread.ts";
import { sleepUnlessAborted } from "../watch/sleep-unless-aborted.ts";
import { type RetryPolicy, retryDelayMs } from "./retry-policy.ts";

export type ThreadReleaseReason = (typeof THREAD_RELEASE_REASONS)[number];

export interface WorkClaimedThreadOptions {
  store: Store;
  config: Config;
  home: string;
  host: string;
  now(): Date;
  claimed: ClaimedThread;
  /** The worker's name in its events, `host:pid`. */
  worker: string;
  ttlMs: number;
  retry: RetryPolicy;
  defaultAgent?: string;
  timeoutSeconds?: number;
  /** Aborted when the worker stops taking work: no next step or retry starts, a running step finishes. */
  stop: AbortSignal;
  /** Aborted to stop a running step's agent at once (its reason names the signal). */
  abort: AbortSignal;
  /** Takes one of the worker's steps (`--max-steps`); false when none is left. */
  reserveStep(): boolean;
  /** Gives back a step taken for an attempt that ran no agent. */
  returnStep(): void;
  emit(event: CliEvent): Promise<void>;
  onStderr(chunk: string): void;
  onWarning?(message: string): void;
}

/** How a worker let a claimed thread go: where it stood, why, and the steps the worker recorded on it. */
export interface ClaimedThreadOutcome {
  record: ThreadRecord;
  reason: ThreadReleaseReason;
  steps: number;
}

/**
 * Steps a thread a worker claimed until it ends, suspends or fails, holding the claimed lease (renewed
 * while agents run) across its steps and releasing it at the end. A failed step is tried again after a
 * growing wait, up to the policy's retries (not the agent failure of a role with its own `retries:`,
 * which the step has retried already); then the thread is set `failed` with the last error. A step
 * whose agent is misconfigured (no agent, an unknown alias) ran nothing: it is reported once and the
 * thread let go as it was (`misconfigured`), neither retried nor failed. The
 * thread is let go as it stands, still active, when the worker stops (or has no `--max-steps` left)
 * before a step or a retry, when its step is interrupted, or when the lease is lost. A cancel request
 * (`uwf cancel`) stops the running step's agent and starts no other; the thread is then cancelled.
 */
export async function workClaimedThread(options: WorkClaimedThreadOptions): Promise<ClaimedThreadOutcome> {
  const { store, claimed, worker } = options;
  const hold = holdLease({
    refs: store.refs,
    lease: claimed.lease,
    ttlMs: options.ttlMs,
    now: options.now,
    signal: options.abort,
  });
  const outcome: ClaimedThreadOutcome = { record: claimed.thread, reason: "stopping", steps: 0 };
  try {
    await options.emit({
      type: "thread-claimed",
      worker,
      thread: claimed.thread.id,
      workflow: claimed.thread.workflow,
      head: claimed.thread.head,
      expiresAt: claimed.lease.expiresAt,
      at: options.now().toISOString(),
    });
    await stopReplacedAgent(claimed.replaced, options.host);
    outcome.reason = await stepUntilSettled(options, hold, outcome);
  } catch (error) {
    await hold.release({ afterFailure: true });
    throw error;
  }
  if (await hold.release({ afterFailure: outcome.reason === "lost" })) {
    // `uwf cancel` asked for the thread: its step (if one ran) stopped, and now it is cancelled.
    const { id } = claimed.thread;
    await honourCancelRequest({ refs: store.refs, threadId: id, host: options.host, now: options.now });
    outcome.record = (await store.refs.getThread(id)) ?? outcome.record;
    outcome.reason = releaseReasonOf(outcome.record);
  }
  // A branch that moved settles its parent (the last one needed queues the join); a parent that fanned out has its branches made.
  const { branchOf } = outcome.record;
  if (branchOf !== undefined) {
    await settleParentAfterBranch(branchOf.thread, settleOptions(options)).catch(() => null);
  } else if (outcome.record.status === "waiting") {
    await settleParent(outcome.record.id, settleOptions(options)).catch(() => null);
  }
  const { record } = outcome;
  await options.emit({
    type: "thread-released",
    worker,
    thread: record.id,
    head: record.head,
    status: record.status,
    reason: outcome.reason,
    steps: outcome.steps,
    at: options.now().toISOString(),
  });
  return outcome;
}

async function stepUntilSettled(
  options: WorkClaimedThreadOptions,
  hold: LeaseHold,
  outcome: ClaimedThreadOutcome,
): Promise<ThreadReleaseReason> {
  const { store, worker, retry } = options;
  const threadId = options.claimed.thread.id;
  const attempts = retry.retries + 1;
  for (let attempt = 1; ; ) {
    if (hold.cancelRequested()) return "cancelled";
    if (options.stop.aborted || !options.reserveStep()) return "stopping";
    let started = null as StepStart | null;
    try {
      const stepped = await stepThread({
        store,
        config: options.config,
        home: options.home,
        threadId,
        defaultAgent: options.defaultAgent,
        timeoutSeconds: options.timeoutSeconds,
        signal: options.abort,
        host: options.host,
        now: options.now,
        lease: hold,
        onProgress: () => {},
        onStderr: options.onStderr,
        ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
        onBranchesStarted: (event) => options.emit({ type: "branches-started", ...event, worker }),
        onBranchesJoined: (event) => options.emit({ type: "branches-joined", ...event, worker }),
        onStarted: (step) => {
          started = step;
          const { thread, number, role, agent, at } = step;
          return options.emit({
            type: "step-started",
            thread,
            number,
            role,
            agent,
            at: at.toISOString(),
            worker,
          });
        },
      });
      outcome.record = stepped.record;
      if (stepped.kind === "stepped") {
        outcome.steps++;
        await options.emit({ type: "step-finished", thread: threadId, ...stepped.step, worker });
      } else {
        options.returnStep();
      }
    } catch (thrown) {
      const error = hold.explain(thrown);
      outcome.record = (await store.refs.getThread(threadId)) ?? outcome.record;
      const kind = classifyStepFailure(error);
      const failure = describeFailure(error);
      const number = started?.number ?? outcome.record.stepCount + 1;
      const role = started?.role ?? null;
      const run = typeof failure.data.run === "string" ? failure.data.run : null;
      await options.emit({ type: "step-failed", thread: threadId, number, role, error: failure, run, worker });
      // Only a step whose agent started counts toward `--max-steps`.
      if (started === null) options.returnStep();
      if (kind === "interrupted" || kind === "lost") return kind;
      if (kind === "refused") return releaseReasonOf(outcome.record);
      // Nothing ran: the thread stays as it was, and the worker claims it again once config.yaml changes.
      if (kind === "misconfigured") return "misconfigured";
      // A role's own `retries:` is the whole policy: its failed step is not tried again on top of it.
      const retriedByRole = error instanceof AgentFailedError && error.retriedByRole;
      if (attempt >= attempts || retriedByRole) return giveUp(options, hold, outcome, failure, attempt);
      const delayMs = retryDelayMs(retry, attempt);
      attempt++;
      await options.emit({ type: "step-retry", worker, thread: threadId, number, attempt, attempts, delayMs });
      // The hold's signal follows `abort`, and a cancel request.
      if (!(await sleepUnlessAborted(delayMs, AbortSignal.any([options.stop, hold.signal])))) return "stopping";
      continue;
    }
    const { record } = outcome;
    if (record.status === "ended") {
      const { outcome } = record;
      await options.emit({
        type: "thread-ended",
        thread: threadId,
        head: record.head,
        ...(outcome === undefined ? {} : { outcome }),
        worker,
      });
    }
    if (record.status === "suspended") {
      const { head, next, reason } = record;
      await options.emit({
        type: "thread-suspended",
        thread: threadId,
        head,
        role: next,
        reason: reason ?? "",
        worker,
      });
    }
    if (record.status !== "active") return releaseReasonOf(record);
    attempt = 1;
  }
}

/** The retries are spent: the thread is set `failed` with the last attempt's error (unless the lease was lost meanwhile). */
async function giveUp(
  options: WorkClaimedThreadOptions,
  hold: LeaseHold,
  outcome: ClaimedThreadOutcome,
  failure: { code: string; message: string; data: Record<string, unknown> },
  attempts: number,
): Promise<ThreadReleaseReason> {
  const threadFailure = {
    code: failure.code,
    message: failure.message,
    run: typeof failure.data.run === "string" ? failure.data.run : null,
    attempts,
    failedAt: options.now().toISOString(),
  };
  let failed: ThreadRecord | null;
  try {
    failed = await failThread(options.store.refs, outcome.record.id, hold, threadFailure);
  } catch (error) {
    // The lease was lost: whoever holds the thread now decides what becomes of it.
    if (isUwfError(error) && error.code === LeaseLostError.code) return "lost";
    throw error;
  }
  if (failed === null) return "lost";
  outcome.record = failed;
  await options.emit({
    type: "thread-failed",
    worker: options.worker,
    thread: failed.id,
    head: failed.head,
    failure: threadFailure,
  });
  return "failed";
}

/** Why a thread that is no longer active is let go: where it stands. */
/** How a worker settles a parent: its events carry the worker's name. */
export function settleOptions(
  options: Pick<WorkClaimedThreadOptions, "store" | "home" | "host" | "now" | "emit" | "worker">,
): SettleParentOptions {
  const { worker } = options;
  return {
    store: options.store,
    home: options.home,
    host: options.host,
    now: options.now,
    onBranchesStarted: (event) => options.emit({ type: "branches-started", ...event, worker }),
    onBranchesJoined: (event) => options.emit({ type: "branches-joined", ...event, worker }),
  };
}

function releaseReasonOf(record: ThreadRecord): ThreadReleaseReason {
  switch (record.status) {
    case "ended":
    case "waiting":
    case "suspended":
    case "failed":
    case "cancelled":
      return record.status;
    default:
      return "refused";
  }
}
