import { HeadConflictError, resolveThread, withThreadLease } from "@uwf/engine";
import type { ShownThread, ThreadRecord } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";
import { ThreadAlreadyEndedError } from "../../errors/thread-already-ended-error.ts";
import { toShownThread } from "./to-shown-thread.ts";

/**
 * Marks an active or suspended thread cancelled: it refuses further steps but its nodes stay, so it
 * can be read and forked. An ended thread is refused and keeps `ended`; cancelling a cancelled thread
 * changes nothing and succeeds, so a script may cancel twice.
 */
export async function cancelCommand(options: { thread: string }, context: CommandContext) {
  const store = await context.openStore();
  const found = await resolveThread(store.refs, options.thread);
  const refuseOrKeep = (record: ThreadRecord): ThreadRecord | null => {
    if (record.status === "ended") throw new ThreadAlreadyEndedError(record.id, record.head);
    return record.status === "cancelled" ? record : null;
  };
  const unchanged = refuseOrKeep(found);
  if (unchanged !== null) return cancelled(unchanged, false);
  const outcome = await withThreadLease(
    { refs: store.refs, threadId: found.id, ttlMs: 60_000, host: context.host, now: context.now },
    async (): Promise<{ record: ThreadRecord; changed: boolean }> => {
      // Read again under the lease: a step may have ended the thread since.
      const current = (await store.refs.getThread(found.id)) ?? found;
      const kept = refuseOrKeep(current);
      if (kept !== null) return { record: kept, changed: false };
      const update = { status: "cancelled", updatedAt: context.now().toISOString() } as const;
      if (!(await store.refs.updateThread(current.id, current.head, update))) {
        throw new HeadConflictError(current.id, current.head, current.head);
      }
      return { record: { ...current, ...update }, changed: true };
    },
  );
  return cancelled(outcome.record, outcome.changed);
}

function cancelled(record: ThreadRecord, changed: boolean) {
  const result = toShownThread(record);
  return {
    result,
    format: (value: ShownThread) =>
      changed ? `thread ${value.id} cancelled` : `thread ${value.id} was already cancelled; nothing changed`,
  };
}
