import type { Store } from "@uwf/cas";
import type { StepResult, ThreadRecord } from "@uwf/protocol";
import { loadSuspensionView } from "../answers/read-suspension.ts";
import { loadBranchGroups } from "../branches/load-branch-groups.ts";

/** The statuses of a branch its join no longer waits for. */
const SETTLED = new Set(["ended", "failed", "cancelled"]);

/**
 * What a waiting parent waits for (`step`'s `waitingFor`), and, by branch id, the answer schema each
 * suspended branch takes (null: text), so a surface can say how to answer it.
 */
export interface WaitingFor {
  shown: NonNullable<StepResult["waitingFor"]>;
  answerSchemas: Map<string, Record<string, unknown> | null>;
}

/** A waiting parent's last fan-out: its branches not settled yet, and those of them suspended with their questions; null without a fan-out. */
export async function loadWaitingFor(store: Store, record: ThreadRecord): Promise<WaitingFor | null> {
  const group = (await loadBranchGroups(store, record)).at(-1);
  if (group === undefined) return null;
  const answerSchemas = new Map<string, Record<string, unknown> | null>();
  const pending = group.branches.filter((branch) => !SETTLED.has(branch.status));
  const suspended = [];
  for (const branch of pending.filter(({ status }) => status === "suspended")) {
    const asked = await store.refs.getThread(branch.thread);
    if (asked !== null)
      answerSchemas.set(branch.thread, (await loadSuspensionView(store, asked))?.answerSchema ?? null);
    suspended.push({ key: branch.key, thread: branch.thread, role: asked?.next ?? null, reason: asked?.reason ?? "" });
  }
  const shown = {
    pending: pending.length,
    branches: group.branches.length,
    ...(suspended.length === 0 ? {} : { suspended }),
  };
  return { shown, answerSchemas };
}
