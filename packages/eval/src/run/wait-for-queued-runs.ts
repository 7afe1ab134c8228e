import { leaseMayStillCommit, type Store } from "@uwf/cas";
import type { ThreadRecord } from "@uwf/protocol";
import { SUITE_BUDGET_REACHED, SUITE_INTERRUPTED, type SuiteRun } from "./suite-run.ts";

export interface WaitForQueuedRunsOptions {
  store: Store;
  signal: AbortSignal;
  /** This machine's name and clock: whether a lease's holder may still commit. */
  host: string;
  now(): Date;
  /** How often the threads' records are read (default 500 ms). */
  pollMs?: number;
  /** What each run's thread spent since the suite took it up, by thread id: kept up to date here. */
  spent: Map<string, number>;
  /** Why no new step may start (SUITE_INTERRUPTED, SUITE_BUDGET_REACHED), or null. */
  stopReason(): string | null;
}

/**
 * Waits until no run's thread is active (workers step them). Once the suite's budget is reached the
 * threads still active are taken out of the queue, and the wait ends when those no worker holds are
 * all that is left; Ctrl-C ends it at once. Runs whose thread is still active get the reason as error.
 */
export async function waitForQueuedRuns(runs: SuiteRun[], options: WaitForQueuedRunsOptions): Promise<void> {
  const { store, signal, spent, stopReason } = options;
  const pollMs = options.pollMs ?? 500;
  const waiting = runs.filter((run) => run.record !== null && run.error === null);
  const initialCost = new Map(waiting.map((run) => [run.thread as string, run.record?.usage.costUsd ?? 0]));
  let unqueued = false;
  for (;;) {
    for (const run of waiting) {
      const record = await store.refs.getThread(run.thread as string);
      if (record === null) continue;
      run.record = record;
      spent.set(record.id, record.usage.costUsd - (initialCost.get(record.id) ?? 0));
    }
    const active = waiting.filter((run) => run.record?.status === "active");
    if (active.length === 0) return;
    const stopped = stopReason();
    if (stopped === SUITE_INTERRUPTED) {
      for (const run of active) run.error = stopped;
      return;
    }
    if (stopped === SUITE_BUDGET_REACHED) {
      if (!unqueued) {
        for (const run of active) {
          const record = run.record as ThreadRecord;
          await store.refs.updateThread(record.id, record.head, { queued: false });
        }
        unqueued = true;
      } else {
        // Held by a step that may still commit: a crashed step's leftover row (a dead holder, pid 0) is no holder.
        const now = options.now();
        const held = new Set(
          (await store.refs.listLeases())
            .filter((lease) => leaseMayStillCommit(lease, { now, host: options.host }))
            .map((lease) => lease.threadId),
        );
        if (active.every((run) => !held.has(run.thread as string))) {
          for (const run of active) run.error = stopped;
          return;
        }
      }
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      signal.addEventListener("abort", done, { once: true });
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
    });
  }
}
