import type { Store } from "@uwf/cas";
import type { Lease, LiveEvent, ThreadRecord } from "@uwf/protocol";
import { toStepSummary } from "../history/load-step-summaries.ts";
import { readChain } from "../history/read-chain.ts";
import { ThreadHistory } from "../history/thread-history.ts";
import { AFTER_STEP_OUTPUT } from "./follow-thread.ts";
import { standingEvent } from "./standing-event.ts";

/**
 * How far before the newest update it has seen a check reads again (`updatedSince`): `updatedAt` is
 * written by each writer's clock, and two writers' commits land in either order, so an update may
 * carry a time a little older than one already seen. What was already reported is skipped.
 */
export const WATCH_LOOKBACK_MS = 5_000;

export interface WatchStoreOptions {
  store: Pick<Store, "objects" | "refs">;
  /** Each event, in order for each thread. Must not throw. */
  onEvent(event: LiveEvent): void;
  /** Stops the watch, as `stop` does. */
  signal?: AbortSignal;
  /** How often a polling store checks for changes (`RefStore.watchChanges`); default the store's. */
  pollMs?: number;
  /** A check that failed (the store out of reach): the watch goes on with the next change. Default: ignored. */
  onError?(error: unknown): void;
  /** See WATCH_LOOKBACK_MS. */
  lookbackMs?: number;
  now?: () => Date;
}

export interface StoreWatch {
  /** Stops watching; resolves once no event will follow. */
  stop(): Promise<void>;
  /** Resolves when no check is running or due: for tests and benchmarks. */
  settled(): Promise<void>;
}

/** What the watch knows of a thread: its record as last reported (null once deleted), and the lease last seen. */
interface Known {
  record: ThreadRecord | null;
  json: string;
  leaseToken: string | null;
}

/**
 * The store's change feed as LiveEvents (what `uwf ui` sends its pages), whatever process writes:
 * it waits for the store's change signal (`RefStore.watchChanges`: LISTEN/NOTIFY on PostgreSQL, a
 * `PRAGMA data_version` check on SQLite) and then reads only what changed, the threads updated since
 * a little before the newest update it saw, the threads deleted since then and the leases held, and
 * compares them with what it knows of each thread:
 *
 * - a thread's new steps: one `step-finished` each, with the step's summary as `log --json` gives
 *   it, however many steps it took between two checks;
 * - its status becoming `failed`: `step-failed` from its failure (code, message, the agent run;
 *   `data` empty, the failure keeps no more); `ended`: `thread-ended`; `suspended` (or suspended
 *   again): `thread-suspended`;
 * - any change of its record, a new thread and a deleted one (record null) included: `thread-updated`;
 * - a lease taken on an active thread whose record has not changed since: `step-started`, numbered
 *   after its steps, for the role it goes to (`next`), with `agent` empty (a lease does not say which
 *   agent the step resolves) and `at` the lease's time. `uwf cancel` and `uwf delete` hold a thread's
 *   lease for a few milliseconds too, which a check seldom meets; a step that fails without failing its
 *   thread (`uwf step`, not a worker) leaves no trace but its lease going.
 *
 * - what a running step's agent prints (its stdout and stderr, as the step stores them a batch at a
 *   time): `step-output`, read for each thread whose lease is held, from the step running when the
 *   lease was first seen, and once more after the lease went;
 *
 * Nothing is reported of what was there before the watch started: a thread first seen reports only
 * the steps completed since (by their `completedAt`), beyond those a fork took from its parent.
 * Resolves once watching.
 */
export async function watchStore(options: WatchStoreOptions): Promise<StoreWatch> {
  const { store, onEvent } = options;
  const now = options.now ?? (() => new Date());
  const lookbackMs = options.lookbackMs ?? WATCH_LOOKBACK_MS;
  const startedAt = now().toISOString();
  const known = new Map<string, Known>();
  /** The lease last seen of threads the watch has no record of yet, so a lease is not reported twice. */
  const leaseOnly = new Map<string, string>();
  let newest = startedAt;
  /** Where each running thread's output was read up to; `ending` once its lease went (one more read, then dropped). */
  const outputs = new Map<string, { after: { step: number; seq: number }; ending: boolean }>();
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const since = () => {
    const upTo = Math.min(Date.parse(newest), now().getTime());
    return new Date(upTo - lookbackMs).toISOString();
  };

  const emit = (event: LiveEvent) => {
    if (!stopped) onEvent(event);
  };

  async function check(): Promise<void> {
    await reportOutput();
    const from = since();
    const { threads } = await store.refs.listThreads({ updatedSince: from });
    // Oldest change first, so the events of different threads come roughly as they happened.
    threads.sort((left, right) => (left.updatedAt < right.updatedAt ? -1 : left.updatedAt > right.updatedAt ? 1 : 0));
    for (const record of threads) {
      if (record.updatedAt > newest) newest = record.updatedAt;
      await reportRecord(record);
    }
    for (const entry of await store.refs.listDeletedThreads({ deletedSince: from })) {
      const seen = known.get(entry.id);
      if (seen?.record === null) continue;
      if (seen === undefined && entry.deletedAt < startedAt) {
        known.set(entry.id, { record: null, json: "null", leaseToken: null });
        continue;
      }
      known.set(entry.id, { record: null, json: "null", leaseToken: null });
      emit({ type: "thread-updated", thread: entry.id, record: null });
    }
    const leases = await store.refs.listLeases();
    for (const lease of leases) await reportLease(lease);
    await followOutput(leases);
  }

  /** Starts reading the output of threads whose lease is held now; marks those whose lease went. */
  async function followOutput(leases: readonly Lease[]): Promise<void> {
    const at = now().toISOString();
    const held = new Set(
      leases
        .filter((lease) => lease.expiresAt > lease.acquiredAt && lease.expiresAt > at)
        .map((lease) => lease.threadId),
    );
    let fresh = false;
    for (const thread of held) {
      const following = outputs.get(thread);
      if (following !== undefined) {
        following.ending = false;
        continue;
      }
      const record = known.get(thread)?.record ?? (await store.refs.getThread(thread));
      if (record === null) continue;
      outputs.set(thread, { after: { step: record.stepCount, seq: AFTER_STEP_OUTPUT }, ending: false });
      fresh = true;
    }
    for (const [thread, following] of outputs) if (!held.has(thread)) following.ending = true;
    if (fresh) await reportOutput();
  }

  /** `step-output` for what the followed threads' steps stored since the last read. */
  async function reportOutput(): Promise<void> {
    for (const [thread, following] of [...outputs]) {
      const ending = following.ending;
      for (;;) {
        const chunks = await store.refs.readStepOutput(thread, { after: following.after });
        const last = chunks.at(-1);
        if (last === undefined) break;
        following.after = { step: last.step, seq: last.seq };
        for (const chunk of chunks) {
          if (chunk.step < 1 || chunk.seq < 1) continue;
          emit({ type: "step-output", thread, ...chunk });
        }
      }
      if (ending) outputs.delete(thread);
    }
  }

  async function reportRecord(record: ThreadRecord): Promise<void> {
    const json = JSON.stringify(record);
    const seen = known.get(record.id);
    if (seen?.json === json) return;
    const leaseToken = seen?.leaseToken ?? leaseOnly.get(record.id) ?? null;
    leaseOnly.delete(record.id);
    known.set(record.id, { record, json, leaseToken });
    const previous = seen?.record;
    // First seen, and unchanged since before the watch began: what it is now is where it starts.
    if (previous === undefined && record.updatedAt < startedAt) return;
    if (previous !== undefined && previous !== null && previous.head !== record.head) {
      await reportSteps(record, previous.stepCount, null);
    } else if (previous === undefined) {
      await reportSteps(record, record.forkedFrom?.step ?? 0, startedAt);
    }
    const statusEvent = statusChangeEvent(record, previous ?? undefined);
    if (statusEvent !== null) emit(statusEvent);
    emit({ type: "thread-updated", thread: record.id, record });
  }

  /** `step-finished` for the steps after `from` (a count), or, with `completedSince`, for those completed since then. */
  async function reportSteps(record: ThreadRecord, from: number, completedSince: string | null): Promise<void> {
    if (record.stepCount <= from) return;
    const chain = await readChain(store, record.head, { thread: record });
    const history = new ThreadHistory(store.objects, chain);
    let first = Math.min(from, history.length);
    if (completedSince !== null) {
      // Walk back from the head while the steps are new: an old thread reads only its new steps' nodes.
      let index = history.length;
      while (index > first && (await history.node(index - 1)).completedAt >= completedSince) index--;
      first = index;
    }
    for (const step of await history.stepsFrom(first)) {
      emit({ type: "step-finished", thread: record.id, ...toStepSummary(step) });
    }
  }

  async function reportLease(lease: Lease): Promise<void> {
    // A lease released with a crashed step's head unsettled, kept expired from the start: nobody steps.
    if (lease.expiresAt <= lease.acquiredAt) return;
    const seen = known.get(lease.threadId);
    if ((seen?.leaseToken ?? leaseOnly.get(lease.threadId)) === lease.token) return;
    if (seen !== undefined) seen.leaseToken = lease.token;
    else leaseOnly.set(lease.threadId, lease.token);
    // Taken before the watch began: a step already under way, not a change.
    if (lease.acquiredAt < startedAt) return;
    // Not kept as what the watch knows of the thread: its next update must be compared with what it reported.
    const record = seen === undefined ? await store.refs.getThread(lease.threadId) : seen.record;
    if (record === null || record.status !== "active") return;
    // The record changed after the lease was taken: that step is recorded already (the holder is releasing).
    if (record.updatedAt > lease.acquiredAt) return;
    emit({
      type: "step-started",
      thread: record.id,
      number: record.stepCount + 1,
      role: record.next ?? "",
      agent: "",
      at: lease.acquiredAt,
    });
  }

  const runChecks = (): Promise<void> => {
    if (running !== null) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await check();
        } catch (error) {
          options.onError?.(error);
        }
      } while (again && !stopped);
      running = null;
    })();
    return running;
  };

  const stopWatching = await store.refs.watchChanges(
    () => {
      if (!stopped) void runChecks();
    },
    options.pollMs === undefined ? {} : { pollMs: options.pollMs },
  );
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    options.signal?.removeEventListener("abort", onAbort);
    await stopWatching();
    await running;
  };
  const onAbort = () => void stop();
  if (options.signal?.aborted === true) await stop();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  return {
    stop,
    settled: async () => {
      while (running !== null) await running;
    },
  };
}

/** The event a thread's status change calls for: what `--jsonl` reports when a thread ends, suspends or fails. */
function statusChangeEvent(record: ThreadRecord, previous: ThreadRecord | null | undefined): LiveEvent | null {
  const changed = previous === undefined || previous === null || previous.status !== record.status;
  if (record.status === "ended" && changed) return standingEvent(record);
  if (
    record.status === "suspended" &&
    (changed || previous?.head !== record.head || previous?.reason !== record.reason)
  )
    return standingEvent(record);
  if (record.status === "failed" && changed && record.failure !== undefined) {
    return {
      type: "step-failed",
      thread: record.id,
      number: record.stepCount + 1,
      role: record.next,
      error: { code: record.failure.code, message: record.failure.message, data: {} },
      run: record.failure.run ?? null,
    };
  }
  return null;
}
