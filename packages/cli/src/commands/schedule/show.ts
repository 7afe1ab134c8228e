import { getScheduleOrThrow } from "@uwf/engine";
import type { ScheduleShowResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { formatScheduleView, scheduleView } from "./schedule-view.ts";

/** `uwf schedule show NAME`: the schedule and the threads it started. */
export async function scheduleShowCommand(options: { name: string }, context: CommandContext) {
  const store = await context.openStore({ create: false });
  const result = await scheduleView(store.refs, await getScheduleOrThrow(store.refs, options.name));
  return { result, format: (value: ScheduleShowResult) => formatScheduleView(value) };
}
