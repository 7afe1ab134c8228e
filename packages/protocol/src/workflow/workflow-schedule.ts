import { z } from "zod";
import { durationSchema } from "../time/duration.ts";

/**
 * What a schedule does when it fires while the last thread it started is still running (active,
 * waiting or suspended): `skip` starts nothing, `allow` starts another, `buffer-one` starts one more
 * once that thread stops running (further fires meanwhile are skipped).
 */
export const overlapPolicySchema = z.enum(["skip", "allow", "buffer-one"]);
export type OverlapPolicy = z.infer<typeof overlapPolicySchema>;

/**
 * A workflow's own `schedule:` (registered by `uwf workflow add` under the workflow's name), with the
 * same meaning as `uwf schedule add`'s flags. The cron expression and time zone are checked by the
 * workflow package (with the cron library), with the file position.
 */
export const workflowScheduleSchema = z
  .object({
    cron: z.string().min(1),
    /** An IANA time zone (`Europe/Berlin`); default UTC. */
    tz: z.string().min(1).optional(),
    prompt: z.string().optional(),
    inputs: z.record(z.string(), z.unknown()).optional(),
    overlap: overlapPolicySchema.optional(),
    /** How late a missed fire may still run (a worker was down): fires older than this are skipped. Default: none is caught up. */
    catchUp: durationSchema.optional(),
    /** Start the thread queued for workers instead of running it in the process that fires it. */
    queue: z.boolean().optional(),
  })
  .strict();
export type WorkflowSchedule = z.infer<typeof workflowScheduleSchema>;
