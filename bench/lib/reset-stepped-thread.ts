import type { Store } from "../../packages/cas/src/index.ts";
import type { Address } from "../../packages/protocol/src/index.ts";

/**
 * What a timed `uwf step` benchmark runs after each run (outside the timing): checks that the step advanced
 * thread `threadId` from `before` by one step and indexed it, then puts back the head, step count and chain
 * index it had, so every run steps the same, never-ended thread and the store keeps its thread count.
 */
export async function resetSteppedThread(
  store: Store,
  threadId: string,
  before: { head: Address; steps: number },
): Promise<void> {
  const thread = await store.refs.getThread(threadId);
  if (thread === null || thread.stepCount !== before.steps + 1 || thread.head === before.head) {
    throw new Error(`uwf step did not advance thread ${threadId}: ${JSON.stringify(thread)}`);
  }
  const reset = {
    head: before.head,
    stepCount: before.steps,
    status: "active",
    next: "worker",
    updatedAt: new Date().toISOString(),
  } as const;
  if (!(await store.refs.updateThread(threadId, thread.head, reset))) throw new Error(`could not reset ${threadId}`);
  const index = await store.refs.recallChainIndex(threadId, { details: true });
  if (index?.steps.at(-1)?.address !== thread.head) throw new Error(`uwf step did not index ${threadId}`);
  await store.refs.rememberChainIndex(threadId, { ...index, steps: index.steps.slice(0, -1) });
}
