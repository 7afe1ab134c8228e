import type { Store } from "@uwf/cas";
import type { ThreadRecord } from "@uwf/protocol";
import { cancelThread } from "../lease/cancel-thread.ts";
import { endedOrDeleted } from "./ended-or-deleted.ts";
import { readFanOut } from "./read-fan-out.ts";

/**
 * Cancelling a parent cancels the branches it made that have not finished (those whose `branchOf` names
 * it: a fork's shared siblings belong to the parent they were made for), unless its fan-out says
 * `onCancel: abandon`. A branch being stepped is asked to stop, as `uwf cancel --no-wait` asks; the
 * cancelled ids are returned.
 */
export async function cancelBranches(
  options: { store: Store; host: string; now(): Date },
  parent: ThreadRecord,
): Promise<string[]> {
  const { store } = options;
  // Only a step can fan out: a thread that never stepped has no branches.
  if (parent.stepCount === 0) return [];
  const links = await store.refs.listBranches(parent.id, parent.stepCount);
  if (links.length === 0) return [];
  const plan = await readFanOut(store.objects, parent.head);
  if (plan === null || plan.onCancel === "abandon") return [];
  const cancelled: string[] = [];
  for (const link of links) {
    const branch = await store.refs.getThread(link.thread);
    if (branch === null || branch.branchOf?.thread !== parent.id) continue;
    if (branch.status === "ended" || branch.status === "cancelled") continue;
    try {
      await cancelThread({ store, threadId: branch.id, host: options.host, now: options.now, waitMs: 0 });
      cancelled.push(branch.id);
    } catch (error) {
      // It ended meanwhile, or was deleted: nothing to cancel.
      if (!endedOrDeleted(error)) throw error;
    }
  }
  return cancelled;
}
