import { removeSchedule } from "@uwf/engine";
import type { ScheduleRemoveResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";

/** `uwf schedule rm NAME`: the threads it started stay. */
export async function scheduleRemoveCommand(options: { name: string }, context: CommandContext) {
  const store = await context.openStore();
  await removeSchedule(store.refs, options.name);
  const result: ScheduleRemoveResult = { schedule: options.name, removed: true };
  return { result, format: (value: ScheduleRemoveResult) => `removed schedule ${value.schedule}` };
}
