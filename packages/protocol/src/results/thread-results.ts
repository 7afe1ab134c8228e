import { z } from "zod";
import { branchGroupSchema } from "../branches/branch-group.ts";
import { budgetReportSchema } from "../budget/budget.ts";
import { usageSchema } from "../budget/usage.ts";
import { errorBodySchema } from "../errors/error-result.ts";
import { addressSchema } from "../ids/address.ts";
import { suspensionViewSchema } from "../suspensions/suspension-view.ts";
import { threadCountsSchema } from "../threads/thread-counts.ts";
import {
  forkOriginSchema,
  leaseSchema,
  threadFailureSchema,
  threadIdSchema,
  threadOutcomeSchema,
  threadRecordSchema,
  threadStatusSchema,
} from "../threads/thread-record.ts";
import { THREAD_STATUSES } from "../threads/thread-statuses.ts";

export const startResultSchema = z.object({ thread: z.string(), workflow: addressSchema, head: addressSchema });
export type StartResult = z.infer<typeof startResultSchema>;

/** One step as reported by `step`, `run`, `log`. */
export const stepSummarySchema = z.object({
  number: z.number().int().positive(),
  address: addressSchema,
  role: z.string(),
  agent: z.string(),
  status: z.string().nullable(),
  output: z.record(z.string(), z.unknown()),
  startedAt: z.string(),
  completedAt: z.string(),
  durationMs: z.number(),
  usage: usageSchema.nullable(),
  /** How many times its agent was run for it, when more than once (a reply retried for its schema or route); absent after one. */
  attempts: z.number().int().min(2).optional(),
});
export type StepSummary = z.infer<typeof stepSummarySchema>;

export const stepResultSchema = z.object({
  thread: z.string(),
  head: addressSchema,
  status: threadStatusSchema,
  next: z.string().nullable(),
  steps: z.array(stepSummarySchema),
  /** Why a suspended thread waits (its role's `reason`, or `budget`); absent unless suspended. */
  reason: z.string().optional(),
  /** A suspended thread's question and the answer it needs; absent unless suspended by a role (not by its budget). */
  suspension: suspensionViewSchema.optional(),
  /** How an ended thread ended; absent unless ended (and on threads ended before outcomes were kept). */
  outcome: threadOutcomeSchema.optional(),
  /** What a failed thread's last attempt failed with, and the run it left; absent unless failed. */
  failure: threadFailureSchema.optional(),
  /** The thread's budget and what it spent, for a thread with one; `exceeded` names the limit a budget suspension reached. */
  budget: budgetReportSchema.optional(),
  /**
   * While the thread is `waiting`: its last fan-out's branches that have not settled yet (not ended,
   * failed or cancelled), and how many it has. Absent otherwise.
   */
  waitingFor: z
    .object({
      pending: z.number().int().nonnegative(),
      branches: z.number().int().nonnegative(),
      /** The pending branches that are suspended, each with its question: they wait for `uwf resume BRANCH`. */
      suspended: z
        .array(z.object({ key: z.string(), thread: z.string(), role: z.string().nullable(), reason: z.string() }))
        .optional(),
    })
    .optional(),
  /**
   * Present when the command failed once it knew the thread: `steps` are the steps it recorded before
   * the failure, `head`, `status` and `next` where the thread stood after them. The exit code and the
   * error document on stderr are the error's.
   */
  error: errorBodySchema.optional(),
});
export type StepResult = z.infer<typeof stepResultSchema>;

export const forkResultSchema = z.object({
  thread: z.string(),
  forkedFrom: forkOriginSchema,
  head: addressSchema,
  /** With `--workflow` onto another version: the workflow the fork runs under (`forkedFrom.workflow`, the one it left). */
  workflow: addressSchema.optional(),
});
export type ForkResult = z.infer<typeof forkResultSchema>;

/** `fork --count N` and `fork --output DIR`: the forks made, in order (of the folder's files, sorted by name). */
export const forksResultSchema = z.object({ forks: z.array(forkResultSchema) });
export type ForksResult = z.infer<typeof forksResultSchema>;

/**
 * A thread's record as `show` and `cancel` print it. `thread` names the thread, as in every result that
 * names one; `id`, the record's own name for it, is kept as an alias.
 */
export const shownThreadSchema = threadRecordSchema.extend({
  thread: threadIdSchema,
  /** The start inputs (`show`, for a thread started with some). */
  inputs: z.record(z.string(), z.unknown()).optional(),
  /** The record's budget with what the thread spent against it. */
  budget: budgetReportSchema.optional(),
  /** The thread's fan-outs and their branches, oldest first (`show`); absent on a thread that never fanned out. */
  branches: z.array(branchGroupSchema).optional(),
  /** A suspended thread's question and the answer it needs; absent unless suspended by a role (not by its budget). */
  suspension: suspensionViewSchema.optional(),
  /** Its steps counted by the one rule every view uses (`show`, `log`; absent from `list`'s rows). */
  counts: threadCountsSchema.optional(),
});
export type ShownThread = z.infer<typeof shownThreadSchema>;

/**
 * `uwf delete`: the threads whose records were removed (each with the head it had, which gc then collects
 * unless another thread reaches it), and those left because another process steps them (exit 75).
 */
export const deleteResultSchema = z.object({
  deleted: z.array(z.object({ thread: threadIdSchema, head: addressSchema })),
  busy: z.array(z.object({ thread: threadIdSchema, message: z.string() })),
});
export type DeleteResult = z.infer<typeof deleteResultSchema>;

/** Who steps a thread now (`list --running`): the process holding its lease, since when, and until when unless renewed. */
export const leaseHolderSchema = leaseSchema.pick({ host: true, pid: true, acquiredAt: true, expiresAt: true });
export type LeaseHolder = z.infer<typeof leaseHolderSchema>;

/** A thread as `list` prints it: `thread` as in `show`, and `corrupt` for a thread whose head cannot be read. */
export const listedThreadSchema = threadRecordSchema.extend({
  thread: threadIdSchema,
  status: z.enum([...THREAD_STATUSES, "corrupt"]),
  /** The record's budget with what the thread spent against it. */
  budget: budgetReportSchema.optional(),
  /** `list --running`: the lease held on the thread. */
  lease: leaseHolderSchema.optional(),
  /** A suspended thread's: when its role's `suspendTimeout` runs out. Absent on every other thread. */
  deadline: z.iso.datetime().optional(),
});
export type ListedThread = z.infer<typeof listedThreadSchema>;

export const listResultSchema = z.object({
  threads: z.array(listedThreadSchema),
  total: z.number().int().nonnegative(),
  limit: z.number().int().nullable(),
  offset: z.number().int().nonnegative(),
  /** `--search` only, when true: the count stopped (1,000 past the offset), so at least `total` threads match. */
  more: z.boolean().optional(),
});
export type ListResult = z.infer<typeof listResultSchema>;

/**
 * A failed attempt at a thread's next step, listed by `log` where it happened (after the steps before
 * it): the thread's `failure`, with the step number and role it was to be.
 */
export const failedAttemptSchema = threadFailureSchema.extend({
  number: z.number().int().positive(),
  role: z.string().nullable(),
});
export type FailedAttempt = z.infer<typeof failedAttemptSchema>;

export const logResultSchema = z.object({
  thread: z.string(),
  steps: z.array(stepSummarySchema),
  /** The failed attempts after the last step, while the thread is `failed`; absent otherwise. */
  failed: z.array(failedAttemptSchema).optional(),
  /** How the thread ended, once ended (absent on threads ended before outcomes were kept). */
  outcome: threadOutcomeSchema.optional(),
  /** What agent runs that did not become a step used (the thread record's `failedUsage`); absent when none failed. */
  failedUsage: usageSchema.optional(),
  /** The thread's budget and what it spent, for a thread with one. */
  budget: budgetReportSchema.optional(),
  /** Its steps counted by the one rule every view uses (inherited, replaced, taken, its branches'). */
  counts: threadCountsSchema.optional(),
  /**
   * The thread's fan-outs, oldest first: each names the step that fanned out (`step`), its join step once
   * recorded (`joinedAt`) and its branches. Absent on a thread that never fanned out.
   */
  branches: z.array(branchGroupSchema).optional(),
});
export type LogResult = z.infer<typeof logResultSchema>;

export const readResultSchema = z.object({
  thread: z.string(),
  totalSteps: z.number().int().nonnegative(),
  shownSteps: z.number().int().nonnegative(),
  markdown: z.string(),
});
export type ReadResult = z.infer<typeof readResultSchema>;
