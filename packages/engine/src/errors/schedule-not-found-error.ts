import { UwfError } from "@uwf/protocol";

/** No schedule has the name given; `known` lists the names there are. */
export class ScheduleNotFoundError extends UwfError<"schedule-not-found"> {
  static override readonly code = "schedule-not-found" as const;
  static override readonly name = "ScheduleNotFoundError";

  constructor(schedule: string, known: string[]) {
    const listed = known.length === 0 ? "there are none" : `there are: ${known.join(", ")}`;
    super(`no schedule ${JSON.stringify(schedule)} (${listed})`, { data: { schedule, known } });
  }
}
