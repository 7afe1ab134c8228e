import { z } from "zod";
import { threadRecordSchema } from "../threads/thread-record.ts";
import {
  stepFailedEventSchema,
  stepFinishedEventSchema,
  stepStartedEventSchema,
  threadEndedEventSchema,
  threadEvent,
  threadSuspendedEventSchema,
} from "./cli-events.ts";

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
 * What the store's change feed reports as any process works (`uwf ui`'s Server-Sent Events): the
 * `--jsonl` shapes of a step and of a thread ending or suspending, seen from outside the process that
 * ran it, and `thread-updated`. Never a worker's own events (`worker` is absent).
 */
export const liveEventSchema = z.discriminatedUnion("type", [
  stepStartedEventSchema,
  stepFinishedEventSchema,
  stepFailedEventSchema,
  threadEndedEventSchema,
  threadSuspendedEventSchema,
  threadUpdatedEventSchema,
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;
