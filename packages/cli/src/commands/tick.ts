import { fireDueSchedules } from "@uwf/engine";
import type { TickResult } from "@uwf/protocol";
import type { CommandContext } from "../pipeline/command-context.ts";
import { formatTick, runFiredThreads } from "./schedule/run-due-work.ts";

export interface TickCommandOptions {
  /** Leave every thread a fire starts to `uwf worker`, as a worker would. */
  queue?: boolean;
  /** For the threads it runs: as `uwf step --agent` and `--timeout`. */
  agent?: string;
  timeout?: number;
}

/**
 * `uwf tick`: one round of due work, for a system cron or CI where no worker runs, then exits 0. Each pass
 * of DUE_WORK runs in turn on the store's clock; each is safe beside workers and other ticks (a
 * compare-and-swap decides who does a piece of work). Then the threads a fire started unqueued run here
 * until they end, suspend or fail.
 */
export async function tickCommand(options: TickCommandOptions, context: CommandContext) {
  const store = await context.openStore();
  const config = await context.loadConfig();
  const common = {
    store,
    config,
    cwd: context.cwd,
    home: context.home,
    now: context.now,
    newId: context.newId,
  };
  const result: TickResult = { fired: [], ran: [], at: "" };
  // The passes of one round, in order; each adds what it did to the result.
  const DUE_WORK: ReadonlyArray<() => Promise<void>> = [
    async () => {
      result.fired.push(...(await fireDueSchedules({ ...common, queued: options.queue === true })));
    },
  ];
  for (const pass of DUE_WORK) await pass();
  result.ran = await runFiredThreads(result.fired, options, context);
  result.at = context.now().toISOString();
  return { result, format: formatTick };
}
