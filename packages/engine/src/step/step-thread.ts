import type { Store } from "@uwf/cas";
import {
  type BudgetLimits,
  type Config,
  END,
  type StepSummary,
  type ThreadFailure,
  type ThreadRecord,
} from "@uwf/protocol";
import { failsThread } from "../errors/classify-step-failure.ts";
import { HeadConflictError } from "../errors/head-conflict-error.ts";
import { ThreadCancelledError } from "../errors/thread-cancelled-error.ts";
import { STEP_LEASE_TTL_MS } from "../lease/step-lease-ttl.ts";
import { type HeldLease, withThreadLease } from "../lease/with-thread-lease.ts";
import { checkBudget } from "./check-budget.ts";
import { chooseStep } from "./choose-step.ts";
import { commitStep } from "./commit-step.ts";
import { describeFailure, failThread } from "./fail-thread.ts";
import { loadStepState } from "./load-step-state.ts";
import { runStepAgent, type StepAgentCallbacks } from "./run-step-agent.ts";

export interface StepThreadOptions extends StepAgentCallbacks {
  store: Store;
  config: Config;
  home: string;
  threadId: string;
  /** The agent alias (or `scripted:FILE`) for roles that name no agent of their own. */
  defaultAgent?: string;
  /** Seconds before the agent is stopped, over every agent's own timeout. */
  timeoutSeconds?: number;
  /**
   * Set by resumeThread: a step that resumes a suspended or ended thread. Without it a step refuses
   * them (ThreadSuspendedError, ThreadEndedError).
   */
  resume?: Resume;
  /** Stops the step (Ctrl-C): its agent is stopped, its run kept, and the thread left as it was. */
  signal: AbortSignal;
  /** This machine's name, recorded in the step's lease: a dead holder of this host loses its lease at once. */
  host: string;
  now(): Date;
  /** Called as each phase of the step ends, with its name (`UWF_TRACE` in the CLI); for finding where time goes. */
  trace?(phase: string): void;
  /**
   * A lease the caller holds across several steps (a worker's claimed thread, see holdLease): the step
   * runs under it instead of taking and releasing one of its own. `signal` then only names why an
   * interrupted agent stopped; the lease's signal is what stops it.
   */
  lease?: HeldLease;
}

/** What a resume brings to its step. */
export interface Resume {
  /** The answer to a suspended role, or the prompt that continues an ended thread. */
  answer?: string;
  /** Limits raised before the step (over the thread's own): they lift a suspension for the budget. */
  limits?: Partial<BudgetLimits>;
}

export type StepThreadOutcome =
  | { kind: "stepped"; record: ThreadRecord; step: StepSummary }
  | { kind: "ended"; record: ThreadRecord }
  /** The step would have started at or over a limit: the thread is suspended for its budget, no agent ran. */
  | { kind: "suspended"; record: ThreadRecord };

/**
 * DESIGN §4's step algorithm, in five phases under the thread's lease: load the thread, check its
 * budget (suspending it instead of going over a limit), choose the role, agent and prompt, run the agent (validating and routing its reply, retrying with either problem), commit the nodes and
 * compare-and-swap the head — with the record `ended` at once when the reply routes to `$END`.
 */
export async function stepThread(options: StepThreadOptions): Promise<StepThreadOutcome> {
  if (options.lease !== undefined) return stepUnderLease(options, options.lease, {});
  return withThreadLease(
    {
      refs: options.store.refs,
      threadId: options.threadId,
      ttlMs: STEP_LEASE_TTL_MS,
      host: options.host,
      now: options.now,
      signal: options.signal,
    },
    async (lease) => {
      const seen: SeenRecord = {};
      try {
        return await stepUnderLease(options, lease, seen);
      } catch (error) {
        await recordStepFailure(options, lease, seen.record, error);
        throw error;
      }
    },
  );
}

/** The record as the step first read it, kept for when the step fails. */
interface SeenRecord {
  record?: ThreadRecord;
}

/**
 * A step run outside a worker (`step`, `run`, `resume`, a batch) that failed after the agent's retries
 * (failsThread: the agent failed, its reply stayed invalid or unroutable, it could not be started; not
 * a full disk or an unreachable store) sets its thread `failed` under the step's lease, as a worker does after its retries, with
 * the run the agent left: nothing is hidden, and the next step tries again. Only an active thread is
 * set so: an answer to a suspended thread or a prompt continuing an ended one that fails leaves it as
 * it was, so the answer can be given again. An interrupted step, a lost lease or a refusal changes nothing.
 */
async function recordStepFailure(
  options: StepThreadOptions,
  lease: HeldLease,
  seen: ThreadRecord | undefined,
  error: unknown,
): Promise<void> {
  const { code, message, data } = describeFailure(error);
  if (!failsThread(error, code)) return;
  const failure: ThreadFailure = {
    code,
    message,
    run: typeof data.run === "string" ? data.run : null,
    // A failed thread tried again and failing again counts its attempts on.
    attempts: (seen?.failure?.attempts ?? 0) + 1,
    failedAt: options.now().toISOString(),
  };
  try {
    await failThread(options.store.refs, options.threadId, lease, failure);
  } catch {
    // The lease was lost or the store refused: the step's own error is what to report.
  }
}

async function stepUnderLease(
  options: StepThreadOptions,
  lease: HeldLease,
  seen: SeenRecord,
): Promise<StepThreadOutcome> {
  const { store, threadId, resume } = options;
  options.trace?.("lease taken");
  // A lease taken over from a holder that was asked to cancel the thread carries the request on.
  if (lease.cancelRequested()) throw new ThreadCancelledError(threadId);
  const request = resume === undefined ? undefined : { answer: resume.answer };
  const loaded = await loadStepState(store, threadId, { resume: request, trace: options.trace });
  seen.record = loaded.record;
  const budget = await checkBudget(loaded, lease, { ...options, resumeLimits: resume?.limits });
  if (budget.kind === "suspended") return budget;
  const { state } = budget;
  const planned = await chooseStep(state, { ...options, resumeAnswer: resume?.answer });
  if (planned.ended) return endThread(store, state.record, options.now());
  const run = await runStepAgent(state, planned, lease, options);
  return { kind: "stepped", ...(await commitStep(state, planned, run, lease, options)) };
}

/** The moderator routes to `$END` before any agent runs (a record an older uwf left `active`): the record is marked ended. */
async function endThread(store: Store, record: ThreadRecord, now: Date): Promise<StepThreadOutcome> {
  const ended = { status: "ended", next: END, updatedAt: now.toISOString() } as const;
  if (!(await store.refs.updateThread(record.id, record.head, ended)))
    throw new HeadConflictError(record.id, record.head, record.head);
  return { kind: "ended", record: { ...record, ...ended } };
}
