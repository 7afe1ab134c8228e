import { expireDueSuspensions, fireDueSchedules } from "@uwf/engine";
import type { CliEvent, TickResult } from "@uwf/protocol";
import { formatTick } from "../format/runs/format-tick.ts";
import type { CommandContext } from "../pipeline/command-context.ts";
import { runFiredThreads, runThreadsHere } from "./schedule/run-fired-threads.ts";

export interface TickCommandOptions {
  /** Leave every thread a fire starts to `uwf worker`, as a worker would. */
  queue?: boolean;
  /** `--at`: the round's now (ISO 8601, UTC) instead of the store's clock. */
  at?: string;
  /** For the threads it runs: as `uwf step --agent` and `--timeout`. */
  agent?: string;
  timeout?: number;
}

/**
 * `uwf tick`: one round of due work, for a system cron or CI where no worker runs, then exits 0. Each pass
 * of DUE_WORK runs in turn on the store's clock; each is safe beside workers and other ticks (a
 * compare-and-swap decides who does a piece of work). Then the threads a fire started unqueued, and the
 * unqueued threads a timed-out suspension routed on to a role, run here until they end, suspend or fail.
 */
export async function tickCommand(options: TickCommandOptions, context: CommandContext) {
  const store = await context.openStore();
  const at = options.at === undefined ? undefined : new Date(options.at);
  const common = {
    ...(at === undefined ? {} : { at }),
    store,
    // Read only when a fire starts a thread: a tick with nothing due reads no config.yaml.
    config: () => context.loadConfig(),
    cwd: context.cwd,
    home: context.home,
    now: context.now,
    newId: context.newId,
  };
  const result: TickResult = { fired: [], expired: [], ran: [], at: "" };
  const expiredToRunHere: string[] = [];
  // The passes of one round, in order; each adds what it did to the result.
  const DUE_WORK: ReadonlyArray<() => Promise<void>> = [
    async () => {
      const emitted = (event: CliEvent) => context.emit(event);
      const { expired } = await expireDueSuspensions({
        ...common,
        host: context.host,
        onBranchesStarted: (event) => emitted({ type: "branches-started", ...event }),
        onBranchesJoined: (event) => emitted({ type: "branches-joined", ...event }),
        signal: context.signal,
      });
      for (const { thread, role, routed, record } of expired) {
        const timedOut = { thread, role, routed, status: record.status, at: context.now().toISOString() };
        result.expired.push(timedOut);
        if (record.status === "active" && record.queued !== true) expiredToRunHere.push(thread);
        await context.emit({ type: "suspension-timed-out", ...timedOut });
      }
    },
    async () => {
      result.fired.push(...(await fireDueSchedules({ ...common, queued: options.queue === true })));
    },
  ];
  for (const pass of DUE_WORK) await pass();
  result.ran = await runFiredThreads(result.fired, options, context);
  // A timed-out suspension routed on to a role: run here unless a worker will claim it.
  const routedHere = options.queue === true ? [] : expiredToRunHere;
  result.ran.push(...(await runThreadsHere(routedHere, options, context)));
  result.at = options.at ?? context.now().toISOString();
  return { result, format: formatTick };
}
