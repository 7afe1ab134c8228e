import { setSchedulePaused } from "@uwf/engine";
import type { ScheduleShowResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { formatScheduleView, scheduleView } from "./schedule-view.ts";

/** `uwf schedule pause NAME`: it fires no more until resumed (`trigger` still fires it). */
export async function schedulePauseCommand(options: { name: string }, context: CommandContext) {
  return setPaused(options.name, true, context);
}

/** `uwf schedule resume NAME`: next due at its cron's first time from now; fires missed while paused are not caught up. */
export async function scheduleResumeCommand(options: { name: string }, context: CommandContext) {
  return setPaused(options.name, false, context);
}

async function setPaused(name: string, paused: boolean, context: CommandContext) {
  const store = await context.openStore();
  const result = await scheduleView(store.refs, await setSchedulePaused(store.refs, name, paused));
  return { result, format: (value: ScheduleShowResult) => formatScheduleView(value) };
}
