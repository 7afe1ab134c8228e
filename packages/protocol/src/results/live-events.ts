import { z } from "zod";
import { threadRecordSchema } from "../threads/thread-record.ts";
import { threadEvent, threadStepEventSchemas } from "./cli-events.ts";

/**
 * A thread's record changed in any way (a new thread, a step, a status, queued, cancelled, deleted):
 * its record as it is now, or null once it was deleted. Sent beside the step events, so a page that
 * shows a list of threads need not know which event changes which column.
 */
export const threadUpdatedEventSchema = threadEvent("thread-updated").extend({
  record: threadRecordSchema.nullable(),
});
export type ThreadUpdatedEvent = z.infer<typeof threadUpdatedEventSchema>;

/**
 * What a running step's agent printed (its stdout and stderr; a built-in agent's turns and tool calls),
 * as the step stored it: the step's number, the chunk's place in that step's output (`seq`), the stream
 * (`uwf` for uwf's own note that the output was cut at its cap), the text and when it was printed.
 */
export const stepOutputEventSchema = z.object({
  type: z.literal("step-output"),
  thread: z.string(),
  step: z.number().int().positive(),
  seq: z.number().int().positive(),
  stream: z.enum(["stdout", "stderr", "uwf"]),
  text: z.string(),
  at: z.string(),
});
export type StepOutputEvent = z.infer<typeof stepOutputEventSchema>;

/**
 * `uwf log THREAD --agent-output [--step N] --json` (the UI's `/api/threads/ID/output`): the live output
 * its steps' agents printed as they ran, as stored (capped per run of a step), by step, then seq.
 */
export const agentOutputResultSchema = z.object({
  thread: z.string(),
  /** The step asked for; null for every step. */
  step: z.number().int().positive().nullable(),
  chunks: z.array(stepOutputEventSchema.omit({ type: true, thread: true })),
});
export type AgentOutputResult = z.infer<typeof agentOutputResultSchema>;

/**
 * What the store's change feed reports as any process works (`uwf ui`'s Server-Sent Events): the
 * `--jsonl` shapes of a step and of a thread ending or suspending, seen from outside the process that
 * ran it, and `thread-updated`. Never a worker's own events (`worker` is absent).
 */
export const liveEventSchema = z.discriminatedUnion("type", [
  ...threadStepEventSchemas,
  threadUpdatedEventSchema,
  stepOutputEventSchema,
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;
