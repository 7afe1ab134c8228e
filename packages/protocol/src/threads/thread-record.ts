import { z } from "zod";
import { threadBudgetSchema } from "../budget/budget.ts";
import { usageSchema } from "../budget/usage.ts";
import { addressSchema } from "../ids/address.ts";
import { THREAD_ID_PATTERN } from "../ids/thread-id-pattern.ts";
import { scheduledBySchema } from "../schedules/schedule.ts";
import { THREAD_STATUSES } from "./thread-statuses.ts";

export const threadIdSchema = z.string().regex(THREAD_ID_PATTERN, "expected a 26-character thread id");

export const threadStatusSchema = z.enum(THREAD_STATUSES);
export type ThreadStatus = z.infer<typeof threadStatusSchema>;

/**
 * Where a fork came from: its lineage. `address` is the node it was forked at; for a counterfactual
 * fork (`fork --output`, `replaced: true`) that is the step whose reply it replaced, which the fork's own
 * chain does not hold (its head is a new sibling of that step). `thread` is the parent thread and `step`
 * the number of that node in the parent's chain (0 for its start node). `thread` is null when no thread
 * recorded then held the node; `thread`, `step` and `replaced` are all null on a fork made by a uwf that
 * recorded only the address (ref schema 6 and older). `workflow` is set only on a fork made onto another
 * workflow version (`fork --workflow`): the workflow it left, its parent's; the record's own
 * `workflowAddress` names the one it runs under. Absent on every other fork, and on forks recorded before
 * ref schema 17.
 */
export const forkOriginSchema = z
  .object({
    thread: threadIdSchema.nullable(),
    step: z.number().int().nonnegative().nullable(),
    address: addressSchema,
    replaced: z.boolean().nullable(),
    workflow: addressSchema.optional(),
  })
  .strict();
export type ForkOrigin = z.infer<typeof forkOriginSchema>;

/**
 * Why a thread's step was given up on (status `failed`), by whoever ran it (`step`, `run`, `resume`, a
 * batch or a worker): the last attempt's error, the agent run it left in the store, how many attempts were made.
 */
export const threadFailureSchema = z
  .object({
    /** The error's code (see ErrorCode), or `internal` for an error without one. */
    code: z.string().min(1),
    message: z.string(),
    /**
     * The address of the last attempt's agent run (its raw reply, stderr, prompt); null when it failed
     * before an agent ran. Absent on failures recorded before it was kept.
     */
    run: addressSchema.nullable().optional(),
    attempts: z.number().int().positive(),
    failedAt: z.iso.datetime(),
  })
  .strict();
export type ThreadFailure = z.infer<typeof threadFailureSchema>;

/** The `$END` edge an ended thread took: its index among its role's edges, and its condition or its map key (`$status`). */
export const outcomeEdgeSchema = z
  .object({
    index: z.number().int().nonnegative(),
    /** The edge's condition name; null for an edge without one. */
    condition: z.string().nullable(),
    /** The `$status` value the edge answers (its key in a map of edges); null for an edge without one. */
    key: z.string().nullable(),
  })
  .strict();
export type OutcomeEdge = z.infer<typeof outcomeEdgeSchema>;

/**
 * How an ended thread ended (DESIGN §1): the role whose reply ended it, that reply's `$status` (null
 * when it had none) and the `$END` edge taken. "Ended" alone says nothing about success; this does.
 */
export const threadOutcomeSchema = z
  .object({
    role: z.string(),
    status: z.string().nullable(),
    /** The `$END` edge; null for a `role:` branch, which ends with its one reply and follows no edge. */
    edge: outcomeEdgeSchema.nullable(),
  })
  .strict();
export type ThreadOutcome = z.infer<typeof threadOutcomeSchema>;

/**
 * Where a branch came from: the parent thread, the number of the parent's step that fanned out, the
 * branch's key (its `parallel:` name, or its item's index for `foreach`), the address of that step, and
 * for a `role:` branch the role it runs (null for a `workflow:` branch). A `role:` branch's chain goes
 * through the parent's step (it shares the parent's history); a `workflow:` branch has a chain of its own.
 */
export const branchOriginSchema = z
  .object({
    thread: threadIdSchema,
    step: z.number().int().positive(),
    branch: z.string().min(1),
    address: addressSchema,
    role: z.string().nullable(),
  })
  .strict();
export type BranchOrigin = z.infer<typeof branchOriginSchema>;

/**
 * Set on a fork an exploration made (`uwf explore`): the exploration's report id and the step it
 * re-runs from. `list` and `tree` leave such forks out unless asked (`--explorations`).
 */
export const exploredBySchema = z
  .object({
    exploration: z.string().regex(THREAD_ID_PATTERN, "expected a 26-character report id"),
    step: z.number().int().positive(),
  })
  .strict();
export type ExploredBy = z.infer<typeof exploredBySchema>;

/** The one mutable record of a thread, kept in the ref store. Everything else is in the object store. */
export const threadRecordSchema = z
  .object({
    id: threadIdSchema,
    workflow: z.string(),
    workflowAddress: addressSchema,
    start: addressSchema,
    head: addressSchema,
    status: threadStatusSchema,
    /** The role the moderator picks next, `$END`, or null when not yet known. */
    next: z.string().nullable(),
    /** Why a suspended thread waits (the role's `reason`). */
    reason: z.string().nullable(),
    stepCount: z.number().int().nonnegative(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    /** Null for an original thread (started, or rebuilt by `uwf cas recover`). */
    forkedFrom: forkOriginSchema.nullable(),
    /** Everything the thread's agents used, failed runs included. */
    usage: usageSchema,
    /**
     * The part of `usage` spent by agent runs that did not become a step (failed, timed out,
     * interrupted, or invalid after the retries). Absent until a run fails, and on older records.
     */
    failedUsage: usageSchema.optional(),
    /**
     * Set only on a record `uwf cas recover` rebuilt from the object store, when the ref store had
     * lost the thread: the head it was rebuilt from. Absent on every other record, and on records
     * written before it existed.
     */
    recoveredFrom: addressSchema.optional(),
    /**
     * The thread's limits (`max_steps`, `max_tokens`, `max_cost_usd`), checked before every step against what
     * it spent (see budgetSpent). Absent on a thread without any, and on records written before budgets.
     */
    budget: threadBudgetSchema.optional(),
    /**
     * True on a thread put in the queue for workers (`start --queue`, `run --queue`): `uwf worker` claims
     * only these. Absent (or false) on a thread stepped where it was started, and on older records.
     */
    queued: z.boolean().optional(),
    /** Set while the thread is `failed`: what its last attempt failed with. Absent otherwise. */
    failure: threadFailureSchema.optional(),
    /** Set on a branch (a child thread a fan-out created): its parent and key. Absent on every other thread. */
    branchOf: branchOriginSchema.optional(),
    /** Set while the thread is `ended`: how it ended. Absent otherwise, and on threads ended before outcomes were kept. */
    outcome: threadOutcomeSchema.optional(),
    /** Set on a thread a schedule started: the schedule and the fire time. Absent on every other thread. */
    scheduledBy: scheduledBySchema.optional(),
    /** Set on a fork an exploration made: see exploredBySchema. Absent on every other thread. */
    exploredBy: exploredBySchema.optional(),
    /**
     * When due work (`uwf tick`, a worker's idle pass) must next look at this suspended thread: its
     * suspension's deadline (the suspending role's `suspendTimeout` after the step). The ref store indexes
     * it, so a pass reads the threads due, not every suspended one; an update that changes the status
     * without it removes it. Absent on every other thread.
     */
    deadline: z.iso.datetime().optional(),
  })
  .strict();
export type ThreadRecord = z.infer<typeof threadRecordSchema>;

/** Who holds a thread's step lease; reported to the second stepper. */
export const leaseSchema = z
  .object({
    threadId: z.string(),
    token: z.string(),
    pid: z.number().int(),
    host: z.string(),
    /**
     * When the holder's process started, as its operating system tells it (on Linux field 22 of
     * `/proc/PID/stat`), so that a pid the system has since given to another process is not taken
     * for the holder; null where it is not known.
     */
    processStart: z.string().nullable(),
    /** The process group of the agent the holder runs (its leader is the agent), or null before it starts one. */
    agentGroup: z.number().int().nullable(),
    /** When that agent started, as `processStart`; null when not known. */
    agentStart: z.string().nullable(),
    acquiredAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
    /**
     * When `uwf cancel` asked the holder to stop and cancel the thread (see RefStore.requestCancel);
     * null when nobody has. A lease taken over keeps the request, so the new holder honours it.
     */
    cancelRequestedAt: z.iso.datetime().nullable(),
    /**
     * The head a step under this lease is about to move its thread to, recorded before its step node is
     * written (RefStore.recordLeaseHead): when the holder dies between writing that node and moving the
     * head, `verify`, `gc` and `recover` tell its leftovers from a ref store restored from an older copy.
     * A lease taken over keeps it until the new holder records its own; null when none was recorded.
     */
    intendedHead: addressSchema.nullable(),
  })
  .strict();
export type Lease = z.infer<typeof leaseSchema>;

/** A name in the workflow registry and the version it points at. */
export const workflowEntrySchema = z
  .object({
    name: z.string(),
    address: addressSchema,
    updatedAt: z.iso.datetime(),
  })
  .strict();
export type WorkflowEntry = z.infer<typeof workflowEntrySchema>;
