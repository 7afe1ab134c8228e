import { queueThread, resolveThread, toShownThread } from "@uwf/engine";
import type { ShownThread } from "@uwf/protocol";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";

export interface QueueCommandOptions {
  thread: string;
}

/**
 * `uwf queue T`: leaves a thread to `uwf worker` (queueThread): an active one is queued, a failed one
 * made active and queued as `uwf resume --queue` does; an ended, suspended or cancelled thread is
 * refused as `uwf step` refuses it. Queueing a queued thread changes nothing and succeeds.
 */
export async function queueCommand(
  options: QueueCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<ShownThread>> {
  const store = await context.openStore();
  const found = await resolveThread(store.refs, options.thread);
  const { changed, record } = await queueThread({ store, threadId: found.id, host: context.host, now: context.now });
  return {
    result: toShownThread(record),
    format: (value) =>
      changed
        ? `thread ${value.id} is queued for a worker (\`uwf worker\` steps it)`
        : `thread ${value.id} was already queued; nothing changed`,
  };
}
