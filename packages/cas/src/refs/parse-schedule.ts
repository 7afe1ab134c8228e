import { scheduleSchema } from "@uwf/protocol";

/** `scheduleSchema.safeParse`, in a file of its own so that check-schedule.ts loads the schema only when it checks one. */
export const parseSchedule = (schedule: unknown) => scheduleSchema.safeParse(schedule);
