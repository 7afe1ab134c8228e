import { UwfError } from "@uwf/protocol";

/** A schedule whose cron expression, time zone or option cannot be used: `field` names which (`--cron`, `schedule.tz`). */
export class InvalidScheduleError extends UwfError<"invalid-schedule"> {
  static override readonly code = "invalid-schedule" as const;
  static override readonly name = "InvalidScheduleError";

  constructor(schedule: string, field: string, problem: string) {
    super(`schedule ${schedule}: ${field}: ${problem}`, { data: { schedule, field, problem } });
  }
}
