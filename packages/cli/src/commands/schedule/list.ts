import type { ScheduleListResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { formatScheduleList } from "./schedule-view.ts";

/** `uwf schedule list`: every schedule, by name. */
export async function scheduleListCommand(_options: object, context: CommandContext) {
  const store = await context.openStore({ create: false });
  const result: ScheduleListResult = { schedules: await store.refs.listSchedules() };
  return { result, format: (value: ScheduleListResult) => formatScheduleList(value.schedules) };
}
