import { forEachConcurrently, type Store } from "@uwf/cas";
import { forkThreads, runThreadToEnd } from "@uwf/engine";
import { type BudgetLimits, type Config, InternalError, messageOf, type ThreadRecord } from "@uwf/protocol";
import { runStopError } from "../run/run-stop-error.ts";
import type { ExplorationTarget } from "./read-exploration-target.ts";

/** Why a re-run is no finished sample although it was planned. */
export const EXPLORATION_INTERRUPTED = "interrupted before it finished";
export const EXPLORATION_BUDGET_REACHED = "the exploration's --max-cost was reached before it finished";

export interface RunExplorationOptions {
  store: Store;
  config: Config;
  home: string;
  host: string;
  now(): Date;
  newId(): string;
  /** Ctrl-C: no new fork or step starts, running steps are interrupted, and what finished is returned. */
  signal: AbortSignal;
  target: ExplorationTarget;
  /** The step numbers to resample, in order. */
  steps: readonly number[];
  /** Re-runs per step. */
  samples: number;
  /** The exploration's id (its report's): each fork it makes is tagged with it (`exploredBy`). */
  exploration: string;
  /** Forks an earlier exploration made, by step: reused (and stepped on if unfinished) before new ones are made. */
  reuse?: ReadonlyMap<number, readonly string[]>;
  /** Re-runs stepped at once (default 4). */
  parallel?: number;
  /** The whole exploration's spend limit in US dollars: no step starts once its re-runs spent this. */
  maxCostUsd?: number;
  /** Each fork's own limits (the budget flags), over those it takes from the thread. */
  limits?: Partial<BudgetLimits>;
  defaultAgent?: string;
  timeoutSeconds?: number;
  /** A re-run is done: finished, or stopped with an error. */
  onRunFinished?(run: ExplorationRun): void;
  onStderr?(chunk: string): void;
  onWarning?(message: string): void;
}

/** One re-run: a fork at the node before `step`, run to its end. */
export interface ExplorationRun {
  step: number;
  /** Its place among the step's re-runs (0-based). */
  repeat: number;
  /** The fork as the run left it; null when it was never made (Ctrl-C, the budget, a fork that failed). */
  record: ThreadRecord | null;
  /** The fork was made by an earlier exploration (`--reuse`). */
  reused: boolean;
  /** Why the run is no finished sample (not made, or stopped before its end); null when it finished. */
  error: string | null;
}

export interface ExplorationRunResult {
  /** Step by step, each step's re-runs in order. */
  runs: ExplorationRun[];
  /** What the re-runs spent in this call, in US dollars. */
  spentUsd: number;
  stoppedBy: "max-cost" | "interrupted" | null;
}

/**
 * Resamples a thread: for each chosen step, `samples` forks at the node before it (those an earlier
 * exploration made first, with `reuse`; the rest new, tagged with the exploration), then every fork
 * stepped to its end (see runThreadToEnd: a fan-out runs its branches and join) with the thread's agents,
 * at most `parallel` at a time. Ctrl-C and the exploration's spend limit stop new steps; the forks
 * they left unfinished come back with the reason as their error.
 */
export async function runExploration(options: RunExplorationOptions): Promise<ExplorationRunResult> {
  const { store, target } = options;
  const spent = new Map<string, number>();
  let stoppedBy: ExplorationRunResult["stoppedBy"] = null;
  const spentUsd = () => Math.round([...spent.values()].reduce((sum, cost) => sum + cost, 0) * 1e6) / 1e6;
  const stopReason = (): string | null => {
    if (options.signal.aborted) {
      stoppedBy = "interrupted";
      return EXPLORATION_INTERRUPTED;
    }
    if (options.maxCostUsd !== undefined && spentUsd() >= options.maxCostUsd) {
      stoppedBy ??= "max-cost";
      return EXPLORATION_BUDGET_REACHED;
    }
    return null;
  };

  const runs: ExplorationRun[] = [];
  for (const step of options.steps) {
    const point = target.points[step - 1];
    if (point === undefined) throw new InternalError(`runExploration: thread ${target.record.id} has no step ${step}`);
    const reused: ThreadRecord[] = [];
    for (const id of options.reuse?.get(step) ?? []) {
      if (reused.length >= options.samples) break;
      const record = await store.refs.getThread(id);
      if (record !== null && record.forkedFrom?.address === point.from) reused.push(record);
    }
    const missing = options.samples - reused.length;
    let made: ThreadRecord[] = [];
    let failure = missing > 0 ? stopReason() : null;
    if (missing > 0 && failure === null) {
      try {
        made = await forkThreads({
          store,
          address: point.from,
          parent: target.record,
          forks: Array.from({ length: missing }, () => null),
          ...(options.limits === undefined ? {} : { limits: options.limits }),
          exploredBy: { exploration: options.exploration, step },
          signal: options.signal,
          now: options.now,
          newId: options.newId,
        });
      } catch (error) {
        failure = messageOf(error);
      }
    }
    const records = [...reused, ...made];
    for (let repeat = 0; repeat < options.samples; repeat++) {
      const record = records[repeat];
      if (record === undefined) {
        runs.push({
          step,
          repeat,
          record: null,
          reused: false,
          error: failure ?? stopReason() ?? EXPLORATION_INTERRUPTED,
        });
      } else runs.push({ step, repeat, record, reused: repeat < reused.length, error: null });
    }
  }

  const runnable = runs.filter((run) => run.record !== null);
  await forEachConcurrently(runnable, Math.max(1, options.parallel ?? 4), async (run) => {
    const initial = run.record as ThreadRecord;
    const initialCost = initial.usage.costUsd;
    spent.set(initial.id, 0);
    const noteSpend = (record: ThreadRecord) => {
      spent.set(record.id, record.usage.costUsd - initialCost);
    };
    const done = await runThreadToEnd({
      store,
      config: options.config,
      home: options.home,
      threadId: initial.id,
      defaultAgent: options.defaultAgent,
      timeoutSeconds: options.timeoutSeconds,
      signal: options.signal,
      host: options.host,
      now: options.now,
      shouldStop: () => stopReason() !== null,
      onStepFinished: (_step, record) => noteSpend(record),
      onProgress: () => {},
      onStderr: options.onStderr ?? (() => {}),
      onWarning: options.onWarning,
    });
    const { record } = done;
    noteSpend(record);
    const error = runStopError(record, done.error, stopReason());
    run.record = record;
    run.error = error;
    options.onRunFinished?.(run);
  });
  return { runs, spentUsd: spentUsd(), stoppedBy };
}
