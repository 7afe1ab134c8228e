import { UwfError } from "@uwf/protocol";

/** createSchedule with a name another schedule has. */
export class ScheduleExistsError extends UwfError<"schedule-exists"> {
  static override readonly code = "schedule-exists" as const;
  static override readonly name = "ScheduleExistsError";

  constructor(schedule: string) {
    super(`schedule ${schedule} already exists`, { data: { schedule } });
  }
}
