import { type ClaimedThread, readProcessStart, type Store } from "@uwf/cas";
import { type CliEvent, type Config, messageOf, type WorkerResult } from "@uwf/protocol";
import { settleParent } from "../branches/settle-parent.ts";
import { claimOrphanedThread } from "../lease/claim-orphaned-thread.ts";
import { leaseLifetimeMs } from "../lease/step-lease-ttl.ts";
import { fireDueSchedules } from "../schedules/fire-due-schedules.ts";
import { expireDueSuspensions } from "../suspensions/expire-due-suspensions.ts";
import { sleepUnlessAborted } from "../watch/sleep-unless-aborted.ts";
import type { RetryPolicy } from "./retry-policy.ts";
import { settleOptions, workClaimedThread } from "./work-claimed-thread.ts";

/** How often an idle worker looks for a thread to claim, give or take a fifth (so workers started together spread out). */
export const WORKER_POLL_MS = 500;

/** How many waiting parents an idle worker looks at per pass (newest first). */
const WAITING_SCAN_LIMIT = 200;

export interface RunWorkerOptions {
  store: Store;
  config: Config;
  /**
   * config.yaml read again for each thread claimed (agents, overrides, models), so a `uwf config set`
   * reaches the next thread without a restart; when a read fails, the config of the last good read is kept.
   */
  loadConfig?(): Promise<Config>;
  home: string;
  /** This machine's name (`os.hostname()`). */
  host: string;
  /** How the worker names itself in its events: `host:pid`. */
  name: string;
  now(): Date;
  /** At most this many threads at once, so at most this many agents run. */
  concurrency: number;
  /** Only threads of this workflow (a registry name). */
  workflow?: string;
  /** Stop once nothing is left to claim and the threads in hand are done. */
  once?: boolean;
  /** Stop after this many steps in all (a step counts once its agent started, retries included). */
  maxSteps?: number;
  pollMs?: number;
  retry: RetryPolicy;
  /** The step lease's lifetime; renewed every quarter of it while the worker holds a thread. */
  ttlMs?: number;
  /** `--agent`: for roles that name no agent of their own. */
  defaultAgent?: string;
  timeoutSeconds?: number;
  /**
   * Aborted to drain the worker (SIGTERM): it claims nothing more and starts no step or retry; running
   * steps finish, and once `graceMs` has passed their agents are stopped. Its reason names the signal.
   */
  stop: AbortSignal;
  /** How long running steps may take to finish once `stop` aborts. */
  graceMs: number;
  /** Aborted to stop running steps' agents at once (a second signal). */
  abort: AbortSignal;
  /** Every event, as it happens; awaited, so a printer may keep them in order. Must not throw. */
  onEvent(event: CliEvent): Promise<void>;
  onStderr(chunk: string): void;
  /**
   * Fire due schedules each poll round (`uwf worker`, unless `--no-schedules`): their threads are started
   * queued, in `cwd`, with ids from `newId`, and claimed like any queued thread. Absent: fire none.
   */
  schedules?: { cwd: string; newId(): string };
  /** What the person running the worker should see: an agent's warnings, a thread the worker could not finish. */
  onWarning(message: string): void;
}

/**
 * `uwf worker`: claims queued threads (a dead local holder's first, see claimOrphanedThread, then `claimThread`),
 * at most `concurrency` at once, and steps each until it ends, suspends or fails (workClaimedThread).
 * When nothing is claimable it polls, every `pollMs` give or take a fifth. Each round first times out the
 * suspensions whose `suspendTimeout` ran out (expireDueSuspensions). It stops when `stop` aborts
 * (after the running steps finish, or the grace runs out), after `maxSteps`, or with `once` when nothing is left;
 * every lease it took is released by then.
 */
export async function runWorker(options: RunWorkerOptions): Promise<WorkerResult> {
  const { store, name: worker, concurrency } = options;
  const ttlMs = options.ttlMs ?? leaseLifetimeMs(options.config);
  const pollMs = options.pollMs ?? WORKER_POLL_MS;
  const counts = { steps: 0, claimed: 0, failed: 0, reserved: 0 };
  // The worker also stops itself when the store fails to claim.
  const failing = new AbortController();
  const stop = AbortSignal.any([options.stop, failing.signal]);
  const grace = new AbortController();
  const abort = AbortSignal.any([options.abort, grace.signal]);
  const armGrace = () => {
    const timer = setTimeout(() => grace.abort(stop.reason), options.graceMs);
    timer.unref();
  };
  if (stop.aborted) armGrace();
  else stop.addEventListener("abort", armGrace, { once: true });

  const stepsLeft = () =>
    options.maxSteps === undefined ? Number.POSITIVE_INFINITY : options.maxSteps - counts.reserved;
  const running = new Set<Promise<void>>();
  let threadFinished = Promise.withResolvers<void>();
  let fatal: unknown;

  let config = options.config;
  const freshConfig = async (): Promise<Config> => {
    if (options.loadConfig === undefined) return config;
    try {
      config = await options.loadConfig();
    } catch (error) {
      options.onWarning(`config.yaml could not be read again, so the last one read is used: ${messageOf(error)}`);
    }
    return config;
  };

  // Threads let go because their agent is misconfigured, each with the config it failed under: not
  // claimed again (the worker would spin on them) until config.yaml reads differently.
  const misconfigured = new Map<string, string>();
  const skipped = async (): Promise<string[]> => {
    if (misconfigured.size === 0) return [];
    const current = JSON.stringify(await freshConfig());
    for (const [thread, seen] of misconfigured) if (seen !== current) misconfigured.delete(thread);
    return [...misconfigured.keys()];
  };

  const work = (claimed: ClaimedThread) => {
    counts.claimed++;
    const done = freshConfig()
      .then((threadConfig) =>
        workClaimedThread({
          ...options,
          config: threadConfig,
          claimed,
          worker,
          ttlMs,
          stop,
          abort,
          reserveStep: () => {
            if (stepsLeft() <= 0) return false;
            counts.reserved++;
            return true;
          },
          returnStep: () => {
            counts.reserved--;
          },
          emit: options.onEvent,
        }).then((outcome) => {
          if (outcome.reason === "misconfigured") misconfigured.set(claimed.thread.id, JSON.stringify(threadConfig));
          return outcome;
        }),
      )
      .then(
        (outcome) => {
          counts.steps += outcome.steps;
          if (outcome.reason === "failed") counts.failed++;
        },
        (error: unknown) => options.onWarning(`thread ${claimed.thread.id}: ${messageOf(error)}`),
      );
    const tracked = done.finally(() => {
      running.delete(tracked);
      threadFinished.resolve();
    });
    running.add(tracked);
  };

  const claimOptions = {
    refs: store.refs,
    host: options.host,
    ttlMs,
    now: options.now,
    ...(options.workflow === undefined ? {} : { workflow: options.workflow }),
  };
  // A dead local holder's thread first: it was started before any thread still waiting in the queue,
  // and would otherwise wait until the queue is empty.
  const claim = async (): Promise<ClaimedThread | null> =>
    (await claimOrphanedThread(claimOptions)) ??
    (await store.refs.claimThread({
      skip: await skipped(),
      ttlMs,
      pid: process.pid,
      host: options.host,
      processStart: readProcessStart(process.pid),
      now: options.now(),
      ...(options.workflow === undefined ? {} : { workflow: options.workflow }),
    }));

  // An idle worker completes what a process killed between a fan-out and its branches, or between a
  // branch's end and its parent's join, left undone: queued parents still waiting are settled.
  const settleWaitingParents = async (): Promise<void> => {
    const { threads } = await store.refs.listThreads({ status: "waiting", limit: WAITING_SCAN_LIMIT });
    const settle = settleOptions({ ...options, store, worker, emit: options.onEvent });
    for (const thread of threads) {
      if (thread.queued === true && !stop.aborted) await settleParent(thread.id, settle).catch(() => null);
    }
  };

  // Due work besides the queue, once per poll interval at most, before claiming: each pass by name (its
  // failure is a warning, not the worker's end). Suspensions timed out first, so a thread that makes
  // runnable is claimed this round; schedules fired start their threads queued, claimed below.
  const duePasses: Array<{ name: string; run: () => Promise<void> }> = [
    {
      name: "suspension deadlines",
      run: async () => {
        const { expired } = await expireDueSuspensions({
          ...settleOptions({ ...options, store, worker, emit: options.onEvent }),
          ...(options.workflow === undefined ? {} : { workflow: options.workflow }),
          signal: stop,
        });
        for (const { thread, role, routed, record } of expired) {
          const at = options.now().toISOString();
          await options.onEvent({
            type: "suspension-timed-out",
            thread,
            role,
            routed,
            status: record.status,
            worker,
            at,
          });
        }
      },
    },
  ];
  const { schedules } = options;
  if (schedules !== undefined) {
    duePasses.push({
      name: "schedules",
      run: async () => {
        const fires = await fireDueSchedules({ ...options, ...schedules, queued: true });
        for (const fire of fires) await options.onEvent({ type: "schedule-fired", ...fire });
      },
    });
  }
  let dueWorkAt = Number.NEGATIVE_INFINITY;
  const doDueWork = async (): Promise<void> => {
    if (stop.aborted || performance.now() - dueWorkAt < pollMs) return;
    dueWorkAt = performance.now();
    for (const pass of duePasses) {
      try {
        await pass.run();
      } catch (error) {
        options.onWarning(`${pass.name}: ${messageOf(error)}`);
      }
    }
  };

  await options.onEvent({
    type: "worker-started",
    thread: null,
    worker,
    concurrency,
    workflow: options.workflow ?? null,
    at: options.now().toISOString(),
  });
  const stopped = new Promise<void>((resolve) => {
    if (stop.aborted) resolve();
    else stop.addEventListener("abort", () => resolve(), { once: true });
  });
  let reason: WorkerResult["reason"] = "signal";
  try {
    for (;;) {
      // Reset before claiming, so a thread that finishes from here on wakes the wait below.
      threadFinished = Promise.withResolvers<void>();
      await doDueWork();
      let idle = false;
      while (!stop.aborted && running.size < Math.min(concurrency, stepsLeft())) {
        let claimed = await claim();
        if (claimed === null) {
          // The idle pass may make work (branches a crash left unmade, a parent ready for its join): claim it
          // now, so that a `--once` worker does not stop with it undone.
          await settleWaitingParents();
          claimed = await claim();
        }
        if (claimed === null) {
          idle = true;
          break;
        }
        work(claimed);
      }
      if (running.size === 0) {
        if (stop.aborted) break;
        if (stepsLeft() <= 0) {
          reason = "max-steps";
          break;
        }
        if (options.once === true && idle) {
          reason = "idle";
          break;
        }
      }
      const waits = [threadFinished.promise];
      // With room for more threads, look again after the poll interval; a full worker waits for a thread to finish.
      if (!stop.aborted) waits.push(idle ? sleepUnlessAborted(jittered(pollMs), stop).then(() => {}) : stopped);
      await Promise.race(waits);
    }
  } catch (error) {
    // The store failed to claim: the worker drains as for SIGTERM, then fails with the store's error.
    fatal = error;
    failing.abort("a store failure");
  }
  await Promise.all(running);
  if (fatal !== undefined) throw fatal;
  const { steps, claimed, failed } = counts;
  const result: WorkerResult = { worker, reason, steps, claimed, failed, at: options.now().toISOString() };
  await options.onEvent({ type: "worker-stopped", thread: null, ...result });
  return result;
}

/** `milliseconds` give or take a fifth, at random. */
function jittered(milliseconds: number): number {
  return Math.round(milliseconds * (0.8 + Math.random() * 0.4));
}
