import { z } from "zod";
import { addressSchema } from "./address.ts";
import { errorBodySchema } from "./error-result.ts";
import { stepSummarySchema } from "./thread-results.ts";

/**
 * The NDJSON events `--jsonl` prints, one object per line, as `run`, `step`, `resume` and
 * `log --follow` go. Every event names its `type` and its `thread`.
 */

/** An agent is about to run a step. */
export const stepStartedEventSchema = z.object({
  type: z.literal("step-started"),
  thread: z.string(),
  number: z.number().int().positive(),
  role: z.string(),
  agent: z.string(),
  /** When the agent started (ISO 8601). */
  at: z.string(),
});
export type StepStartedEvent = z.infer<typeof stepStartedEventSchema>;

/** A step was recorded: the thread's head is now this step. The rest is the step's summary, as `log` shows it. */
export const stepFinishedEventSchema = stepSummarySchema.extend({
  type: z.literal("step-finished"),
  thread: z.string(),
});
export type StepFinishedEvent = z.infer<typeof stepFinishedEventSchema>;

/** A step failed and was not recorded; the head is where it was. Always the command's last event. */
export const stepFailedEventSchema = z.object({
  type: z.literal("step-failed"),
  thread: z.string(),
  /** The number the step would have had. */
  number: z.number().int().positive(),
  /** The role whose agent ran it; null when it failed before an agent started (busy, no agent for the role, a moderator error). */
  role: z.string().nullable(),
  /** What the error boundary reports on stderr: the same code, message and data. */
  error: errorBodySchema,
  /** The agent-run node that keeps what the agent wrote, when one ran. */
  run: addressSchema.nullable(),
});
export type StepFailedEvent = z.infer<typeof stepFailedEventSchema>;

/** The thread reached `$END`. */
export const threadEndedEventSchema = z.object({
  type: z.literal("thread-ended"),
  thread: z.string(),
  head: addressSchema,
});
export type ThreadEndedEvent = z.infer<typeof threadEndedEventSchema>;

/** The thread waits for `uwf resume`: `role` asked, for `reason`. */
export const threadSuspendedEventSchema = z.object({
  type: z.literal("thread-suspended"),
  thread: z.string(),
  head: addressSchema,
  role: z.string().nullable(),
  reason: z.string(),
});
export type ThreadSuspendedEvent = z.infer<typeof threadSuspendedEventSchema>;

/**
 * A batch (`uwf step T1 T2 … --parallel K`) starts no more steps of this thread, which has not ended:
 * the batch reached `--batch-max-cost`, or was interrupted before the thread's next step began.
 */
export const threadStoppedEventSchema = z.object({
  type: z.literal("thread-stopped"),
  thread: z.string(),
  head: addressSchema,
  reason: z.enum(["batch-max-cost", "interrupted"]),
});
export type ThreadStoppedEvent = z.infer<typeof threadStoppedEventSchema>;

export const cliEventSchema = z.discriminatedUnion("type", [
  stepStartedEventSchema,
  stepFinishedEventSchema,
  stepFailedEventSchema,
  threadEndedEventSchema,
  threadSuspendedEventSchema,
  threadStoppedEventSchema,
]);
export type CliEvent = z.infer<typeof cliEventSchema>;
