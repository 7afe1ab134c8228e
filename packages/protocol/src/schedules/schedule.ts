import { z } from "zod";
import { THREAD_ID_PATTERN } from "../ids/thread-id-pattern.ts";
import { overlapPolicySchema } from "../workflow/workflow-schedule.ts";

const timestamp = z.iso.datetime();

/**
 * A schedule as the ref store keeps it (`uwf schedule add`, or a workflow's `schedule:`): when to start
 * which workflow with what, and where it stands. Firing is a compare-and-swap on `nextFireAt`, so a
 * fire time starts at most one thread however many workers look at it.
 */
export const scheduleSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, "expected a name of letters, digits, '_', '.' and '-'"),
    /** The workflow's registry name (or a file path as given, made absolute), resolved when it fires. */
    workflow: z.string().min(1),
    cron: z.string().min(1),
    /** IANA time zone; null means UTC. */
    tz: z.string().nullable(),
    prompt: z.string(),
    inputs: z.record(z.string(), z.unknown()),
    overlap: overlapPolicySchema,
    /** As written (`2h`); null: a missed fire is skipped, only the next one runs. */
    catchUp: z.string().nullable(),
    queue: z.boolean(),
    paused: z.boolean(),
    /** `command` (uwf schedule add) or `workflow` (a workflow's `schedule:`, replaced when it is added again). */
    source: z.enum(["command", "workflow"]),
    /** The next time it is due; null while paused. */
    nextFireAt: timestamp.nullable(),
    lastFireAt: timestamp.nullable(),
    /** The thread the last fire started; null before any. */
    lastThread: z.string().regex(THREAD_ID_PATTERN).nullable(),
    /** `buffer-one`: a fire time held back while the last thread runs, started once it stops. */
    buffered: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .strict();
export type Schedule = z.infer<typeof scheduleSchema>;

/** On a thread a schedule started: which schedule, and the fire time it was started for. */
export const scheduledBySchema = z
  .object({
    schedule: z.string().min(1),
    fireTime: timestamp,
  })
  .strict();
export type ScheduledBy = z.infer<typeof scheduledBySchema>;
