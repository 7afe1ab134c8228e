/**
 * Workers (issue 20 item 5): steps per second of `uwf worker --once` processes over a queue of short
 * threads with the `/bin/sh` agent, on the embedded store and on PostgreSQL, and the time another worker
 * takes to take over a thread whose worker was killed (SIGKILL on this host and on another, SIGTERM).
 * Every worker is the compiled binary, spawned as a user would run it. See docs/performance.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openFileStore, openPostgresStore, type Store } from "../../packages/cas/src/index.ts";
import { startThread } from "../../packages/engine/src/index.ts";
import { configSchema } from "../../packages/protocol/src/index.ts";
import { loadWorkflowFile } from "../../packages/workflow/src/index.ts";
import { LOOP_WORKFLOW } from "../generate-store.ts";
import { round } from "./measure.ts";
import { ulidAt } from "./ulid.ts";

/** Steps each queued thread takes: the short agent says it is done at this step. */
export const STEPS_PER_THREAD = 2;

/** How often an idle worker looks for work in these benchmarks (the default is 500 ms). */
export const BENCH_POLL_MS = 50;

/** How long the slow agent of the takeover benchmarks runs, so a worker is killed in the middle of a step. */
const SLOW_AGENT_SECONDS = 2;

const reply = (done: string) =>
  `printf -- '---\\nn: %s\\ndone: %s\\nsummary: benchmark step %s\\n---\\n\\nDid step %s of the benchmark thread.\\n' "$UWF_STEP" ${done} "$UWF_STEP" "$UWF_STEP"`;

/**
 * `short` ends a thread at step STEPS_PER_THREAD; `slow` sleeps first and never ends it. Both are
 * `/bin/sh` starting nothing else but `sleep`, as the step benchmark's command agent.
 */
export const WORKER_AGENTS = {
  short: {
    command: "/bin/sh",
    args: ["-c", `d=false; [ "$UWF_STEP" -ge ${STEPS_PER_THREAD} ] && d=true; ${reply('"$d"')}`],
  },
  slow: { command: "/bin/sh", args: ["-c", `sleep ${SLOW_AGENT_SECONDS}; ${reply("false")}`] },
};

export type Backend = "embedded" | "postgres";

/** Where a benchmark's store is: a home, and for PostgreSQL the store's URL (a schema of its own). */
export interface BenchStore {
  backend: Backend;
  home: string;
  url?: string;
}

export interface WorkerBenchOptions {
  binary: string;
  work: string;
  /** Builds the environment of a `uwf` process for this home (UWF_STORE added here for PostgreSQL). */
  environment(home: string): Record<string, string | undefined>;
  /** A fresh store: a new home, and on PostgreSQL a new schema. */
  newStore(backend: Backend, name: string): BenchStore;
  progress(message: string): void;
}

export interface ThroughputRun {
  backend: Backend;
  workers: number;
  concurrency: number;
  threads: number;
  steps: number;
  seconds: number;
  stepsPerSecond: number;
  /** Over 1 worker process of concurrency 1 on the same backend. */
  speedUp: number;
  /** The machine's busy share over the run, from /proc/stat (1 = every core busy), or null off Linux. */
  cpuBusy: number | null;
}

export interface TakeoverRun {
  backend: Backend;
  signal: "SIGKILL" | "SIGTERM";
  /** Whether the killed worker ran under another hostname (its own UTS namespace). */
  otherHost: boolean;
  /** From the signal to the surviving worker's `thread-claimed`. */
  takeoverMs: number;
  /** From the signal to the lease's expiry as the store held it (other host: what the survivor must wait for). */
  leaseExpiresInMs: number | null;
  /** SIGTERM: from the signal to the killed worker's `thread-released` (its drain). */
  releasedAfterMs: number | null;
  leaseLifetimeMs: number;
  pollMs: number;
}

/** The step lease a worker takes (the engine's STEP_LEASE_TTL_MS; `uwf worker` has no flag for it). */
export const LEASE_LIFETIME_MS = 60_000;

function storeEnvironment(options: WorkerBenchOptions, store: BenchStore): Record<string, string | undefined> {
  const environment = options.environment(store.home);
  return store.url === undefined ? environment : { ...environment, UWF_STORE: store.url };
}

async function openBenchStore(store: BenchStore): Promise<Store> {
  return store.url === undefined ? openFileStore(store.home) : openPostgresStore(store.url);
}

/** Registers the loop workflow and starts `threads` queued threads, in-process as `uwf run --queue` would. */
async function seedQueue(store: BenchStore, threads: number, cwd: string): Promise<void> {
  mkdirSync(store.home, { recursive: true });
  writeFileSync(join(store.home, "config.yaml"), `${JSON.stringify({ agents: WORKER_AGENTS })}\n`);
  const opened = await openBenchStore(store);
  try {
    const { workflow } = await loadWorkflowFile(LOOP_WORKFLOW);
    const address = await opened.objects.put(workflow);
    await opened.refs.setWorkflow({ name: workflow.name, address, updatedAt: new Date().toISOString() });
    const config = configSchema.parse({});
    for (let index = 0; index < threads; index++) {
      await startThread({
        store: opened,
        config,
        workflowReference: workflow.name,
        prompt: `Benchmark thread ${index}`,
        queued: true,
        cwd,
        home: store.home,
        now: () => new Date(),
        newId: () => ulidAt(Date.now()),
      });
    }
  } finally {
    await opened.close();
  }
}

/** The counts of every thread's status and the steps recorded in all. */
async function countOutcome(store: BenchStore): Promise<{ ended: number; threads: number; steps: number }> {
  const opened = await openBenchStore(store);
  try {
    const { threads } = await opened.refs.listThreads({});
    return {
      threads: threads.length,
      ended: threads.filter((thread) => thread.status === "ended").length,
      steps: threads.reduce((sum, thread) => sum + thread.stepCount, 0),
    };
  } finally {
    await opened.close();
  }
}

/** Jiffies spent busy and in all since boot, summed over the cores (the first line of /proc/stat). */
function readCpuTimes(): { busy: number; total: number } | null {
  try {
    const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/**
 * `workers` processes of `uwf worker --once --concurrency C` over `threads` fresh queued threads: the wall time
 * from spawning them until the last has exited, which --once makes the moment the queue is done. Checks
 * that every thread ended with its steps, and that the workers' own counts add up to them.
 */
export async function measureWorkerThroughput(
  options: WorkerBenchOptions,
  run: { backend: Backend; workers: number; concurrency: number; threads: number },
): Promise<Omit<ThroughputRun, "speedUp">> {
  const store = options.newStore(run.backend, `throughput-${run.workers}x${run.concurrency}`);
  await seedQueue(store, run.threads, options.work);
  const command = [
    options.binary,
    "worker",
    "--once",
    "--json",
    "--agent",
    "short",
    "--concurrency",
    String(run.concurrency),
    "--poll-ms",
    String(BENCH_POLL_MS),
  ];
  const env = storeEnvironment(options, store);
  const cpuBefore = readCpuTimes();
  const started = performance.now();
  const processes = Array.from({ length: run.workers }, () =>
    Bun.spawn(command, { cwd: options.work, env, stdout: "pipe", stderr: "pipe" }),
  );
  const outputs = await Promise.all(
    processes.map(async (child) => {
      const [stdout, stderr, exitCode] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      return { stdout, stderr, exitCode };
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = readCpuTimes();
  let workerSteps = 0;
  for (const output of outputs) {
    if (output.exitCode !== 0) {
      throw new Error(`uwf worker exited with ${output.exitCode}:\n${output.stderr.slice(-2000)}`);
    }
    workerSteps += (JSON.parse(output.stdout) as { steps: number }).steps;
  }
  const outcome = await countOutcome(store);
  const expected = run.threads * STEPS_PER_THREAD;
  if (outcome.ended !== run.threads || outcome.steps !== expected || workerSteps !== expected) {
    throw new Error(
      `workers left ${run.backend} threads unfinished: ${outcome.ended} of ${run.threads} ended, ${outcome.steps} steps recorded and ${workerSteps} reported of ${expected}`,
    );
  }
  const cpuBusy =
    cpuBefore === null || cpuAfter === null
      ? null
      : round((cpuAfter.busy - cpuBefore.busy) / Math.max(1, cpuAfter.total - cpuBefore.total), 2);
  return {
    ...run,
    steps: expected,
    seconds: round(seconds, 2),
    stepsPerSecond: round(expected / seconds, 1),
    cpuBusy,
  };
}

/** Every throughput configuration in turn, with its speed-up over one worker of concurrency 1. */
export async function measureWorkerScaling(
  options: WorkerBenchOptions,
  plan: { backends: Backend[]; workers: number[]; concurrency: number[]; threads: number },
): Promise<ThroughputRun[]> {
  const runs: ThroughputRun[] = [];
  for (const backend of plan.backends) {
    const shapes = [
      ...plan.workers.map((workers) => ({ workers, concurrency: 1 })),
      ...plan.concurrency.filter((concurrency) => concurrency > 1).map((concurrency) => ({ workers: 1, concurrency })),
    ];
    let baseline: number | undefined;
    for (const shape of shapes) {
      const measured = await measureWorkerThroughput(options, { backend, ...shape, threads: plan.threads });
      baseline ??= measured.stepsPerSecond;
      const result = { ...measured, speedUp: round(measured.stepsPerSecond / baseline, 2) };
      runs.push(result);
      options.progress(
        `workers [${backend}] ${shape.workers} × --concurrency ${shape.concurrency}: ${result.stepsPerSecond} steps/s (${result.speedUp}×, CPU ${result.cpuBusy ?? "?"})`,
      );
    }
  }
  return runs;
}

/** A spawned worker whose `--jsonl` events are read as they come. */
interface WatchedWorker {
  child: Bun.Subprocess<"ignore", "pipe", "pipe">;
  /** Resolves with the first event (from the start) that `matches`; fails after `timeoutMs` or when the worker exits. */
  next(matches: (event: WorkerEvent) => boolean, timeoutMs: number): Promise<WorkerEvent>;
  stderr: Promise<string>;
}

interface WorkerEvent {
  type: string;
  thread: string | null;
  at: string;
}

function watchWorker(command: string[], cwd: string, env: Record<string, string | undefined>): WatchedWorker {
  const child = Bun.spawn(command, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const events: WorkerEvent[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  void (async () => {
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of child.stdout) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.trim() !== "") events.push(JSON.parse(line) as WorkerEvent);
      wake();
    }
    ended = true;
    wake();
  })();
  const stderr = new Response(child.stderr).text();
  return {
    child,
    stderr,
    next: (matches, timeoutMs) =>
      new Promise((resolve, reject) => {
        const deadline = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such worker event within ${timeoutMs} ms; saw ${events.map((e) => e.type).join(", ")}`));
        }, timeoutMs);
        function check() {
          const found = events.find(matches);
          if (found !== undefined || ended) {
            clearTimeout(deadline);
            waiters.delete(check);
            if (found !== undefined) resolve(found);
            else
              void stderr.then((text) =>
                reject(new Error(`the worker exited before the event:\n${text.slice(-2000)}`)),
              );
          }
        }
        waiters.add(check);
        check();
      }),
  };
}

/**
 * One thread, claimed by a worker running the slow agent (under another hostname for `otherHost`), killed
 * with `signal` in the middle of its step; a second worker, already polling, takes it over. Times the
 * signal to the survivor's claim, and reads the lease the store held just before the signal.
 */
export async function measureTakeover(
  options: WorkerBenchOptions,
  run: { backend: Backend; signal: "SIGKILL" | "SIGTERM"; otherHost: boolean },
): Promise<TakeoverRun> {
  const store = options.newStore(run.backend, `takeover-${run.signal}-${run.otherHost ? "other" : "same"}`);
  await seedQueue(store, 1, options.work);
  const env = storeEnvironment(options, store);
  const workerArgs = (agent: string) => [
    options.binary,
    "worker",
    "--jsonl",
    "--agent",
    agent,
    "--poll-ms",
    String(BENCH_POLL_MS),
    "--grace",
    "30",
  ];
  // `unshare --uts` gives the victim a hostname of its own without a fork, so its pid is the worker's.
  const victimCommand = run.otherHost
    ? ["unshare", "--uts", "/bin/sh", "-c", 'hostname uwf-bench-other && exec "$@"', "sh", ...workerArgs("slow")]
    : workerArgs("slow");
  const victim = watchWorker(victimCommand, options.work, env);
  let survivor: WatchedWorker | undefined;
  try {
    const claimed = await victim.next((event) => event.type === "thread-claimed", 30_000);
    const threadId = claimed.thread as string;
    await victim.next((event) => event.type === "step-started", 30_000);
    survivor = watchWorker(workerArgs("short"), options.work, env);
    await survivor.next((event) => event.type === "worker-started", 30_000);
    const lease = await readLease(store, threadId);
    const signalledAt = Date.now();
    victim.child.kill(run.signal);
    const taken = await survivor.next(
      (event) => event.type === "thread-claimed" && event.thread === threadId,
      LEASE_LIFETIME_MS + 30_000,
    );
    const released =
      run.signal === "SIGTERM"
        ? await victim.next((event) => event.type === "thread-released" && event.thread === threadId, 30_000)
        : null;
    const result: TakeoverRun = {
      ...run,
      takeoverMs: Date.parse(taken.at) - signalledAt,
      leaseExpiresInMs: lease === null ? null : Date.parse(lease.expiresAt) - signalledAt,
      releasedAfterMs: released === null ? null : Date.parse(released.at) - signalledAt,
      leaseLifetimeMs: LEASE_LIFETIME_MS,
      pollMs: BENCH_POLL_MS,
    };
    options.progress(
      `takeover [${run.backend}] ${run.signal}${run.otherHost ? " on another host" : ""}: ${result.takeoverMs} ms (lease expired ${result.leaseExpiresInMs} ms after the signal)`,
    );
    return result;
  } finally {
    for (const worker of [victim, survivor]) {
      if (worker === undefined || worker.child.exitCode !== null || worker.child.signalCode !== null) continue;
      worker.child.kill("SIGTERM");
      await worker.child.exited;
    }
  }
}

async function readLease(store: BenchStore, threadId: string): Promise<{ expiresAt: string } | null> {
  const opened = await openBenchStore(store);
  try {
    return (await opened.refs.listLeases()).find((lease) => lease.threadId === threadId) ?? null;
  } finally {
    await opened.close();
  }
}
