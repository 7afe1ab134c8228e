import { z } from "zod";
import { errorBodySchema } from "../errors/error-result.ts";
import { addressSchema } from "../ids/address.ts";
import { threadFailureSchema, threadOutcomeSchema, threadStatusSchema } from "../threads/thread-record.ts";
import { stepSummarySchema } from "./thread-results.ts";

/**
 * The NDJSON events `--jsonl` prints, one object per line, as `run`, `step`, `resume`,
 * `log --follow` and `worker` go. Every event names its `type` and its `thread` (null on the two
 * events about a whole worker, `worker-started` and `worker-stopped`); every event `uwf worker` prints
 * names its `worker`.
 */

/** The worker that printed an event: `host:pid`. Absent on the events of other commands. */
const workerField = z.string().optional();

/** A step's number in its thread, from 1. */
const stepNumber = z.number().int().positive();

/** When it happened (ISO 8601). */
const eventTime = z.string();

/** What an event about one thread starts with: its type, then the thread. */
export function threadEvent<Type extends string>(type: Type) {
  return z.object({ type: z.literal(type), thread: z.string() });
}

/** What an event `uwf worker` prints about one thread starts with: its type, the worker, then the thread. */
function workerThreadEvent<Type extends string>(type: Type) {
  return z.object({ type: z.literal(type), worker: z.string(), thread: z.string() });
}

/** What an event about no one thread (a worker's start and stop, `uwf ui`'s start) starts with: its type, then a null thread. */
function processEvent<Type extends string>(type: Type) {
  return z.object({ type: z.literal(type), thread: z.null() });
}

/** An agent is about to run a step. */
export const stepStartedEventSchema = threadEvent("step-started").extend({
  number: stepNumber,
  role: z.string(),
  agent: z.string(),
  /** When the agent started. */
  at: eventTime,
  worker: workerField,
});
export type StepStartedEvent = z.infer<typeof stepStartedEventSchema>;

/** A step was recorded: the thread's head is now this step. The rest is the step's summary, as `log` shows it. */
export const stepFinishedEventSchema = stepSummarySchema.extend({
  type: z.literal("step-finished"),
  thread: z.string(),
  worker: workerField,
});
export type StepFinishedEvent = z.infer<typeof stepFinishedEventSchema>;

/**
 * A step failed and was not recorded; the head is where it was. The command's last event, except
 * under `uwf worker`, where a `step-retry` or a `thread-failed` follows it.
 */
export const stepFailedEventSchema = threadEvent("step-failed").extend({
  /** The number the step would have had. */
  number: stepNumber,
  /** The role whose agent ran it; null when it failed before an agent started (busy, no agent for the role, a moderator error). */
  role: z.string().nullable(),
  /** What the error boundary reports on stderr: the same code, message and data. */
  error: errorBodySchema,
  /** The agent-run node that keeps what the agent wrote, when one ran. */
  run: addressSchema.nullable(),
  worker: workerField,
});
export type StepFailedEvent = z.infer<typeof stepFailedEventSchema>;

/** The thread reached `$END`. */
export const threadEndedEventSchema = threadEvent("thread-ended").extend({
  head: addressSchema,
  /** How it ended: the role, its `$status` and the `$END` edge taken. */
  outcome: threadOutcomeSchema.optional(),
  worker: workerField,
});
export type ThreadEndedEvent = z.infer<typeof threadEndedEventSchema>;

/** The thread waits for `uwf resume`: `role` asked, for `reason`. */
export const threadSuspendedEventSchema = threadEvent("thread-suspended").extend({
  head: addressSchema,
  role: z.string().nullable(),
  reason: z.string(),
  worker: workerField,
});
export type ThreadSuspendedEvent = z.infer<typeof threadSuspendedEventSchema>;

/**
 * A batch (`uwf step T1 T2 … --parallel K`) starts no more steps of this thread, which has not ended:
 * the batch reached `--batch-max-cost`, or was interrupted before the thread's next step began.
 */
export const threadStoppedEventSchema = threadEvent("thread-stopped").extend({
  head: addressSchema,
  reason: z.enum(["batch-max-cost", "interrupted"]),
});
export type ThreadStoppedEvent = z.infer<typeof threadStoppedEventSchema>;

/** `uwf worker` started: it claims threads from now on. */
export const workerStartedEventSchema = processEvent("worker-started").extend({
  worker: z.string(),
  /** At most this many threads at once (`--concurrency`). */
  concurrency: z.number().int().positive(),
  /** Only threads of this workflow (`--workflow`); null for any. */
  workflow: z.string().nullable(),
  at: eventTime,
});
export type WorkerStartedEvent = z.infer<typeof workerStartedEventSchema>;

/** The worker took a queued thread's lease; it holds it across the thread's steps until it releases it. */
export const threadClaimedEventSchema = workerThreadEvent("thread-claimed").extend({
  workflow: z.string(),
  head: addressSchema,
  /** When the lease expires unless renewed (the worker renews it while it works). */
  expiresAt: z.string(),
  at: eventTime,
});
export type ThreadClaimedEvent = z.infer<typeof threadClaimedEventSchema>;

/** The step that just failed (`step-failed`) is tried again after `delayMs`: attempt `attempt` of at most `attempts`. */
export const stepRetryEventSchema = workerThreadEvent("step-retry").extend({
  number: stepNumber,
  attempt: z.number().int().positive(),
  attempts: z.number().int().positive(),
  delayMs: z.number().int().nonnegative(),
});
export type StepRetryEvent = z.infer<typeof stepRetryEventSchema>;

/** The thread's step kept failing after its retries: the worker set it `failed`, with the last error, and released it. */
export const threadFailedEventSchema = workerThreadEvent("thread-failed").extend({
  head: addressSchema,
  failure: threadFailureSchema,
});
export type ThreadFailedEvent = z.infer<typeof threadFailedEventSchema>;

/**
 * Why a worker let a thread go: it `ended`, fanned out and is `waiting` for its branches (which workers
 * claim as threads of their own), `suspended`, `failed` or was `cancelled`; the worker was
 * `stopping` (a signal, `--max-steps`) before its next step; the step was `interrupted`; the lease was
 * `lost` (taken over, or the head moved); stepping it was `refused` (another process changed it); or its
 * agent is `misconfigured` (no agent, an alias config.yaml lacks: nothing ran, the thread is as it was,
 * and the worker claims it again once config.yaml changes).
 */
export const THREAD_RELEASE_REASONS = [
  "ended",
  "waiting",
  "suspended",
  "failed",
  "cancelled",
  "stopping",
  "interrupted",
  "lost",
  "refused",
  "misconfigured",
] as const;

/** The worker gave up the thread's lease: any worker may claim it again if it is still active and queued. */
export const threadReleasedEventSchema = workerThreadEvent("thread-released").extend({
  head: addressSchema,
  status: threadStatusSchema,
  reason: z.enum(THREAD_RELEASE_REASONS),
  /** The steps this worker recorded on the thread while it held it. */
  steps: z.number().int().nonnegative(),
  at: eventTime,
});
export type ThreadReleasedEvent = z.infer<typeof threadReleasedEventSchema>;

/**
 * `uwf worker` is done: `idle` nothing was left to claim (`--once`), `max-steps` it ran its `--max-steps`,
 * `signal` SIGTERM, SIGINT or SIGHUP drained it. Always its last event.
 */
export const workerStoppedEventSchema = processEvent("worker-stopped").extend({
  worker: z.string(),
  reason: z.enum(["idle", "max-steps", "signal"]),
  /** Steps recorded, threads claimed, and threads set `failed`, over the worker's life. */
  steps: z.number().int().nonnegative(),
  claimed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  at: eventTime,
});
export type WorkerStoppedEvent = z.infer<typeof workerStoppedEventSchema>;

/**
 * A schedule fired (`uwf worker`, `uwf tick`, `uwf schedule trigger`): its fire time and the thread it
 * started, or none, with why: `overlap` (its last thread still runs, `--overlap skip`, or one fire is
 * buffered already), `buffered` (held back until its last thread stops, `buffer-one`), `missed` (older
 * than its `--catch-up`), `failed` (its workflow or inputs could not start a thread: `problem` says why).
 */
export const scheduleFiredEventSchema = z.object({
  type: z.literal("schedule-fired"),
  thread: z.string().nullable(),
  schedule: z.string(),
  fireTime: z.string(),
  skipped: z.enum(["overlap", "buffered", "missed", "failed"]).optional(),
  problem: z.string().optional(),
  /** Whether the thread was started queued, for workers (a worker's fires and `--queue` schedules are). */
  queued: z.boolean(),
  at: eventTime,
});
export type ScheduleFiredEvent = z.infer<typeof scheduleFiredEventSchema>;

/** One branch as the fan-out events name it: its key and its thread. */
export const branchRefSchema = z.object({
  key: z.string(),
  thread: z.string(),
  status: threadStatusSchema,
});
export type BranchRef = z.infer<typeof branchRefSchema>;

/**
 * A step's reply fanned out and its branches exist (all of them: made now, or before by a process that
 * stopped between the step and its branches). `step` is the parent's step number that fanned out.
 */
export const branchesStartedEventSchema = threadEvent("branches-started").extend({
  step: stepNumber,
  /** The join role and its policy as written (`all`, `all-settled`, `any`, `quorum:N`). */
  join: z.string(),
  policy: z.string(),
  branches: z.array(branchRefSchema),
  worker: workerField,
});
export type BranchesStartedEvent = z.infer<typeof branchesStartedEventSchema>;

/**
 * The join's policy holds: the parent is active again and its next step is the join role (or, when the
 * policy can no longer hold, the parent is `failed`: `failure` is set). `cancelled` lists the branches
 * cancelled because the join no longer needed them (`any`, `quorum`, `failFast`).
 */
export const branchesJoinedEventSchema = threadEvent("branches-joined").extend({
  step: stepNumber,
  branches: z.array(branchRefSchema),
  cancelled: z.array(z.string()),
  failure: threadFailureSchema.optional(),
  worker: workerField,
});
export type BranchesJoinedEvent = z.infer<typeof branchesJoinedEventSchema>;

/**
 * A suspension's `suspendTimeout` passed unanswered (found by a worker's poll round or `uwf tick`): its
 * timeout step was recorded and routed to `routed` (a role, or `$END`) by the role's `$timeout` edge, or,
 * with no such edge, the thread failed (`suspend-timeout`) and `routed` is null.
 */
export const suspensionTimedOutEventSchema = threadEvent("suspension-timed-out").extend({
  role: z.string(),
  routed: z.string().nullable(),
  status: threadStatusSchema,
  worker: workerField,
  at: eventTime,
});
export type SuspensionTimedOutEvent = z.infer<typeof suspensionTimedOutEventSchema>;

/** `uwf ui` is serving its page at `url` (with the session token for the first visit) until stopped. */
export const uiStartedEventSchema = processEvent("ui-started").extend({
  url: z.string(),
  readOnly: z.boolean(),
  at: eventTime,
});
export type UiStartedEvent = z.infer<typeof uiStartedEventSchema>;

/**
 * The events of a thread's steps and of its ending or suspending: what `--jsonl` prints as a thread runs,
 * and what the store's change feed reports of it (live-events.ts).
 */
export const threadStepEventSchemas = [
  stepStartedEventSchema,
  stepFinishedEventSchema,
  stepFailedEventSchema,
  threadEndedEventSchema,
  threadSuspendedEventSchema,
] as const;

export const cliEventSchema = z.discriminatedUnion("type", [
  ...threadStepEventSchemas,
  threadStoppedEventSchema,
  workerStartedEventSchema,
  threadClaimedEventSchema,
  stepRetryEventSchema,
  threadFailedEventSchema,
  threadReleasedEventSchema,
  workerStoppedEventSchema,
  uiStartedEventSchema,
  branchesStartedEventSchema,
  branchesJoinedEventSchema,
  scheduleFiredEventSchema,
  suspensionTimedOutEventSchema,
]);
export type CliEvent = z.infer<typeof cliEventSchema>;
