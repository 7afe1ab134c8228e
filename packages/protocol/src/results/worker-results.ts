import { z } from "zod";
import { addressSchema } from "../ids/address.ts";
import { threadFailureSchema, threadOutcomeSchema, threadStatusSchema } from "../threads/thread-record.ts";
import { workerStoppedEventSchema } from "./cli-events.ts";

/** `uwf worker --json`: what the worker did over its life, printed when it stops (its `worker-stopped` event without `type` and `thread`). */
export const workerResultSchema = workerStoppedEventSchema.omit({ type: true, thread: true });
export type WorkerResult = z.infer<typeof workerResultSchema>;

/** One thread `uwf wait` waited for, where it stands now, and the exit code it counts as (0 ended, 20 suspended, 1 failed or cancelled, 75 still active). */
export const waitedThreadSchema = z.object({
  thread: z.string(),
  head: addressSchema,
  status: threadStatusSchema,
  next: z.string().nullable(),
  /** Why a suspended thread waits. */
  reason: z.string().nullable(),
  /** What a failed thread's last attempt failed with. */
  failure: threadFailureSchema.optional(),
  /** How an ended thread ended (absent on threads ended before outcomes were kept). */
  outcome: threadOutcomeSchema.optional(),
  exitCode: z.number().int().nonnegative(),
});
export type WaitedThread = z.infer<typeof waitedThreadSchema>;

/** `uwf wait T…`: every thread, in the order given; the command exits with the most severe of their codes. */
export const waitResultSchema = z.object({
  threads: z.array(waitedThreadSchema),
  exitCode: z.number().int().nonnegative(),
});
export type WaitResult = z.infer<typeof waitResultSchema>;
