import type { ScheduleFire } from "@uwf/engine";
import { messageOf, type TickResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";

/**
 * Reports each fire as a `schedule-fired` event, then steps each thread a fire started unqueued until it
 * ends, suspends or fails, here: what `uwf tick` and `uwf schedule trigger` do after firing.
 */
export async function runFiredThreads(
  fires: readonly ScheduleFire[],
  agentFlags: { agent?: string; timeout?: number },
  context: CommandContext,
): Promise<TickResult["ran"]> {
  for (const fire of fires) await context.emit({ type: "schedule-fired", ...fire });
  const unqueued = fires.flatMap((fire) => (fire.thread === null || fire.queued ? [] : [fire.thread]));
  return runThreadsHere(unqueued, agentFlags, context);
}

/**
 * Steps each thread until it ends, suspends or fails, here, one after the other: the threads a round of
 * due work started or made runnable that no worker will claim (not queued).
 */
export async function runThreadsHere(
  threads: readonly string[],
  agentFlags: { agent?: string; timeout?: number },
  context: CommandContext,
): Promise<TickResult["ran"]> {
  const ran: TickResult["ran"] = [];
  if (threads.length === 0) return ran;
  // The step command (the engine's step, agents) only when a thread runs here: most ticks run none.
  const { stepOneThreadCommand } = await import("../thread/step/step-one-thread.ts");
  for (const thread of threads) {
    if (context.signal.aborted) break;
    try {
      const { result } = await stepOneThreadCommand({ ...agentFlags, thread, all: true }, context);
      ran.push({ thread, status: result.status, steps: result.steps.length });
    } catch (error) {
      // A failed step fails its thread, not the round: the other threads still run.
      context.warn(`thread ${thread}: ${messageOf(error)}`);
      const record = await (await context.openStore()).refs.getThread(thread);
      if (record !== null) ran.push({ thread, status: record.status, steps: 0 });
    }
  }
  return ran;
}
