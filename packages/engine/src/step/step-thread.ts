import type { Store } from "@uwf/cas";
import {
  type BudgetLimits,
  type Config,
  END,
  type StepSummary,
  type ThreadFailure,
  type ThreadRecord,
} from "@uwf/protocol";
import { checkResumeAnswer } from "../answers/check-answer.ts";
import { isAnswerable } from "../answers/read-suspension.ts";
import { crashPoint } from "../branches/crash-point.ts";
import { ensureBranches } from "../branches/ensure-branches.ts";
import { settleParentAfterStep, stepAsParent } from "../branches/step-as-parent.ts";
import type { WaitingParentStep } from "../branches/step-waiting-parent.ts";
import { failsThread } from "../errors/classify-step-failure.ts";
import { HeadConflictError } from "../errors/head-conflict-error.ts";
import { ThreadCancelledError } from "../errors/thread-cancelled-error.ts";
import { leaseLifetimeMs } from "../lease/step-lease-ttl.ts";
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
  /** Stepping a parent waiting for its branches: at most this many branches at once (`--parallel`; default DEFAULT_BRANCH_PARALLEL). */
  parallel?: number;
  /** Stepping a waiting parent: step every runnable branch (`parallel` at a time), not only the first `parallel`. */
  allBranches?: boolean;
  /** Ids for the branch threads a fan-out makes (default: monotonic ULIDs). */
  newId?(): string;
}

/** What a resume brings to its step. */
export interface Resume {
  /** The answer to a suspended role, or the prompt that continues an ended thread. */
  answer?: string;
  /**
   * The answer to a role that declares `answer:` (`uwf resume --answer`): YAML or JSON text, or the
   * fields. Checked against the role's schema before anything runs (InvalidAnswerError), recorded as
   * the step's `answer/1` node, and shown to the role and its conditions as structured fields.
   */
  typedAnswer?: string | Record<string, unknown>;
  /** Set by stepThread once `typedAnswer` is checked: the accepted fields. */
  answerFields?: Record<string, unknown>;
  /** Limits raised before the step (over the thread's own): they lift a suspension for the budget. */
  limits?: Partial<BudgetLimits>;
}

export type StepThreadOutcome =
  | { kind: "stepped"; record: ThreadRecord; step: StepSummary }
  | { kind: "ended"; record: ThreadRecord }
  /** The step would have started at or over a limit: the thread is suspended for its budget, no agent ran. */
  | { kind: "suspended"; record: ThreadRecord }
  /** The thread waits for its branches: this step stepped them (see stepWaitingParent), or none could run. */
  | ({ kind: "branches" } & WaitingParentStep);

/**
 * DESIGN §4's step algorithm, in five phases under the thread's lease: load the thread, check its
 * budget (suspending it instead of going over a limit), choose the role, agent and prompt, run the agent (validating and routing its reply, retrying with either problem), commit the nodes and
 * compare-and-swap the head — with the record `ended` at once when the reply routes to `$END`.
 */
export async function stepThread(given: StepThreadOptions): Promise<StepThreadOutcome> {
  const options = await withCheckedAnswer(given);
  if (options.lease !== undefined) return stepUnderLease(options, options.lease, {});
  const parentStep = await stepParent(options);
  if (parentStep !== null) return parentStep;
  const seen: SeenRecord = {};
  let after: ThreadRecord | null = null;
  try {
    const outcome = await stepOnce(options, seen);
    after = outcome.record;
    return outcome;
  } finally {
    // A branch that finished (or stopped to wait) settles its parent: its join may be due, or no longer possible.
    const branchOf = seen.record?.branchOf;
    if (branchOf !== undefined) await settleParentAfterStep(branchOf.thread, after, options);
  }
}

/**
 * A resume's answer checked against what the suspended role takes (its `answer:` schema, or text)
 * before any lease is taken or anything written: a refused answer leaves the thread as it was. An
 * accepted typed answer goes on as its fields and, for the prompt, their YAML.
 */
async function withCheckedAnswer(options: StepThreadOptions): Promise<StepThreadOptions> {
  const { resume } = options;
  if (resume === undefined || resume.answerFields !== undefined) return options;
  const given = {
    ...(resume.answer === undefined ? {} : { text: resume.answer }),
    ...(resume.typedAnswer === undefined ? {} : { typed: resume.typedAnswer }),
  };
  // Raised limits alone lift a budget's suspension; anything else that answers no role is the step's to refuse.
  if (given.text === undefined && given.typed === undefined && resume.limits !== undefined) {
    const record = await options.store.refs.getThread(options.threadId);
    if (record === null || !isAnswerable(record)) return options;
  }
  const checked = await checkResumeAnswer(options.store, options.threadId, given);
  if (checked === null || checked.fields === null) return options;
  return { ...options, resume: { ...resume, answer: checked.text, answerFields: checked.fields } };
}

/** The step of a waiting parent (stepAsParent), each branch stepped as a thread of its own; null for any other thread. */
async function stepParent(options: StepThreadOptions): Promise<StepThreadOutcome | null> {
  const parentStep = await stepAsParent({
    ...options,
    all: options.allBranches === true,
    stepBranch: async (threadId) => {
      try {
        const outcome = await stepThread({ ...options, threadId, resume: undefined, lease: undefined });
        return { thread: threadId, record: outcome.record, step: outcome.kind === "stepped" ? outcome.step : null };
      } catch (error) {
        return { thread: threadId, error };
      }
    },
  });
  if (parentStep?.kind === "join") return stepOnce({ ...options, resume: undefined }, {});
  return parentStep;
}

async function stepOnce(options: StepThreadOptions, seen: SeenRecord): Promise<StepThreadOutcome> {
  return withThreadLease(
    {
      refs: options.store.refs,
      threadId: options.threadId,
      ttlMs: leaseLifetimeMs(options.config),
      host: options.host,
      now: options.now,
      signal: options.signal,
    },
    async (lease) => {
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
  const planned = await chooseStep(state, {
    ...options,
    resumeAnswer: resume?.answer,
    ...(resume?.answerFields === undefined ? {} : { answerFields: resume.answerFields }),
  });
  if (planned.ended) return endThread(store, state.record, options.now());
  const run = await runStepAgent(state, planned, lease, options);
  const committed = await commitStep(state, planned, run, lease, options);
  // A reply that fanned out: its branches are made now (and by the next touch, if this process stops first).
  if (committed.record.status === "waiting") {
    crashPoint("after-fan-out-step");
    await ensureBranches(committed.record, options);
  }
  return { kind: "stepped", ...committed };
}

/** The moderator routes to `$END` before any agent runs (a record an older uwf left `active`): the record is marked ended. */
async function endThread(store: Store, record: ThreadRecord, now: Date): Promise<StepThreadOutcome> {
  const ended = { status: "ended", next: END, updatedAt: now.toISOString() } as const;
  if (!(await store.refs.updateThread(record.id, record.head, ended)))
    throw new HeadConflictError(record.id, record.head, record.head);
  return { kind: "ended", record: { ...record, ...ended } };
}
