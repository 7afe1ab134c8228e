import { z } from "zod";
import { scheduleSchema } from "../schedules/schedule.ts";
import { THREAD_STATUSES } from "../threads/thread-statuses.ts";
import { scheduleFiredEventSchema, suspensionTimedOutEventSchema } from "./cli-events.ts";

/** `uwf schedule list --json`: every schedule, by name. */
export const scheduleListResultSchema = z.object({ schedules: z.array(scheduleSchema) });
export type ScheduleListResult = z.infer<typeof scheduleListResultSchema>;

/**
 * `uwf schedule show --json` (and `add`, `pause`, `resume`): the schedule, and the threads it started,
 * newest first (at most 10; `list --schedule NAME` lists them all).
 */
export const scheduleShowResultSchema = scheduleSchema.extend({
  threads: z.array(
    z.object({ id: z.string(), status: z.enum(THREAD_STATUSES), fireTime: z.string(), createdAt: z.string() }),
  ),
  /** How many threads it started in all. */
  threadCount: z.number().int().nonnegative(),
});
export type ScheduleShowResult = z.infer<typeof scheduleShowResultSchema>;

/** `uwf schedule rm --json`. */
export const scheduleRemoveResultSchema = z.object({ schedule: z.string(), removed: z.literal(true) });
export type ScheduleRemoveResult = z.infer<typeof scheduleRemoveResultSchema>;

/**
 * `uwf tick --json` (and `uwf schedule trigger --json`, with one fire): what one round of due work did:
 * each schedule fired, and the status each thread it started (not queued) was left in after it ran here.
 */
export const tickResultSchema = z.object({
  fired: z.array(scheduleFiredEventSchema.omit({ type: true })),
  /** Each suspension whose `suspendTimeout` ran out in this round (a `suspension-timed-out` event without its type and worker). */
  expired: z.array(suspensionTimedOutEventSchema.omit({ type: true, worker: true })),
  ran: z.array(
    z.object({ thread: z.string(), status: z.enum(THREAD_STATUSES), steps: z.number().int().nonnegative() }),
  ),
  at: z.string(),
});
export type TickResult = z.infer<typeof tickResultSchema>;
