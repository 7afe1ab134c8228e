import type { ThreadRecord } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";
import { resolveThread } from "../../engine/resolve-thread.ts";
import { withThreadLease } from "../../engine/with-thread-lease.ts";
import { HeadConflictError } from "../../errors/head-conflict-error.ts";

/** Marks a thread cancelled: it refuses further steps but its nodes stay, so it can be read and forked. */
export async function cancelCommand(options: { thread: string }, context: CommandContext) {
  const store = await context.openStore();
  const found = await resolveThread(store.refs, options.thread);
  const record = await withThreadLease(
    { refs: store.refs, threadId: found.id, ttlMs: 60_000, host: context.host, now: context.now },
    async (): Promise<ThreadRecord> => {
      const current = (await store.refs.getThread(found.id)) ?? found;
      const update = { status: "cancelled", updatedAt: context.now().toISOString() } as const;
      if (!(await store.refs.updateThread(current.id, current.head, update))) {
        throw new HeadConflictError(current.id, current.head, current.head);
      }
      return { ...current, ...update };
    },
  );
  return { result: record, format: (value: ThreadRecord) => `thread ${value.id} cancelled` };
}
