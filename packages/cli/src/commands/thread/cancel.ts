import { cancelThread, resolveThread } from "@uwf/engine";
import type { ShownThread } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";
import { toShownThread } from "./to-shown-thread.ts";

/**
 * Marks an active or suspended thread cancelled (cancelThread): it refuses further steps but its
 * nodes stay, so it can be read and forked. An ended thread is refused and keeps `ended`; cancelling
 * a cancelled thread changes nothing and succeeds, so a script may cancel twice.
 */
export async function cancelCommand(options: { thread: string }, context: CommandContext) {
  const store = await context.openStore();
  const found = await resolveThread(store.refs, options.thread);
  const { record, changed } = await cancelThread({ store, threadId: found.id, host: context.host, now: context.now });
  return {
    result: toShownThread(record),
    format: (value: ShownThread) =>
      changed ? `thread ${value.id} cancelled` : `thread ${value.id} was already cancelled; nothing changed`,
  };
}
