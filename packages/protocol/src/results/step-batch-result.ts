import { z } from "zod";
import { usageSchema } from "../budget/usage.ts";
import { threadOutcomeSchema } from "../threads/thread-record.ts";
import { stepResultSchema } from "./thread-results.ts";

/**
 * How one thread of a batch (`uwf step T1 T2 … --parallel K`) came out, each with the exit code it
 * counts as: `ended` it reached `$END` (0), `active` it ran its `-n` steps and goes on (0), `waiting` a
 * parent still waiting for its branches (0: its next step steps them, or they wait for answers or workers),
 * `suspended` it waits for `uwf resume`, or was refused because it already did (20), `stopped` the
 * batch reached `--batch-max-cost` before its end (20), `already-ended` it had ended before the batch
 * (0: it counts as ended), `busy` another process held it or its head moved (75), `failed` a step failed (1, or its
 * error's exit code), `cancelled` it was cancelled meanwhile (1), `interrupted` Ctrl-C, SIGTERM or
 * SIGHUP stopped it or kept it from starting (130, 129 for SIGHUP).
 */
export const BATCH_THREAD_OUTCOMES = [
  "ended",
  "active",
  "waiting",
  "suspended",
  "stopped",
  "already-ended",
  "busy",
  "failed",
  "cancelled",
  "interrupted",
] as const;
export const batchThreadOutcomeSchema = z.enum(BATCH_THREAD_OUTCOMES);
export type BatchThreadOutcome = z.infer<typeof batchThreadOutcomeSchema>;

/** One thread of a batch: what `step` reports for it, how it came out, and what it spent in the batch. */
export const batchThreadResultSchema = stepResultSchema.extend({
  /** How the thread came out of the batch (not how it ended: that is `threadOutcome`). */
  outcome: batchThreadOutcomeSchema,
  /** How an ended thread ended (the record's `outcome`: role, `$status`, `$END` edge). */
  threadOutcome: threadOutcomeSchema.optional(),
  /** The exit code this thread counts as; the batch exits with the most severe of them. */
  exitCode: z.number().int().nonnegative(),
  /** What its agents used since the batch began, failed runs included. */
  usage: usageSchema,
});
export type BatchThreadResult = z.infer<typeof batchThreadResultSchema>;

/** `uwf step T1 T2 …` (or `-`, or `--parallel K`): every thread, in the order given. */
export const stepBatchResultSchema = z.object({
  threads: z.array(batchThreadResultSchema),
  /** The whole batch's spending: the sum of the threads' `usage`. */
  usage: usageSchema,
  /** `--batch-max-cost`, in US dollars; null without it. */
  maxCostUsd: z.number().positive().nullable(),
  /** Why the batch started no more steps before every thread was done; null when nothing stopped it. */
  stoppedBy: z.enum(["batch-max-cost", "interrupted"]).nullable(),
  /** The command's exit code: the most severe of the threads' (`uwf help exit-codes`). */
  exitCode: z.number().int().nonnegative(),
});
export type StepBatchResult = z.infer<typeof stepBatchResultSchema>;
