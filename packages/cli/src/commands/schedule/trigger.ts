import { triggerSchedule } from "@uwf/engine";
import type { TickResult } from "@uwf/protocol";
import { formatTick } from "../../format/runs/format-tick.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { runFiredThreads } from "./run-fired-threads.ts";

/**
 * `uwf schedule trigger NAME`: fires it now, outside its cron (paused or not), with its overlap policy;
 * its thread runs here to its end unless the schedule is `--queue` (or `--queue` is given).
 */
export async function scheduleTriggerCommand(
  options: { name: string; queue?: boolean; agent?: string; timeout?: number },
  context: CommandContext,
) {
  const store = await context.openStore();
  const fire = await triggerSchedule({
    store,
    config: await context.loadConfig(),
    name: options.name,
    cwd: context.cwd,
    home: context.home,
    now: context.now,
    newId: context.newId,
    queued: options.queue === true,
  });
  const ran = await runFiredThreads([fire], options, context);
  const result: TickResult = { fired: [fire], expired: [], ran, at: context.now().toISOString() };
  return { result, format: formatTick };
}
