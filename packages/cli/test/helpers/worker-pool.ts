import { expect } from "bun:test";
import { waitFor } from "@uwf/cas/test";
import type { TempHome } from "./temp-home.ts";

/** One `uwf worker` process, from its start to its end, and what it printed. */
export interface WorkerRun {
  process: ReturnType<TempHome["spawn"]>;
  /** What it printed so far: read as it comes, so that a full pipe never blocks the worker. */
  output: string;
  /** All it printed, once it exited. */
  stdout: Promise<string>;
  stderr: Promise<string>;
  /** When it was killed with SIGKILL (ms since the epoch); undefined for a worker never killed. */
  killedAt?: number;
}

/** Starts `uwf ARGS…` (a worker, `--jsonl`) in `temp`'s home, reading its stdout as it comes. */
export function startWorkerRun(
  temp: TempHome,
  args: string[] = ["worker", "--concurrency", "2", "--jsonl"],
): WorkerRun {
  const process = temp.spawn(args);
  const run: WorkerRun = {
    process,
    output: "",
    stdout: Promise.resolve(""),
    stderr: new Response(process.stderr as ReadableStream).text(),
  };
  run.stdout = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of process.stdout as ReadableStream<Uint8Array>) {
      run.output += decoder.decode(chunk, { stream: true });
    }
    return run.output;
  })();
  return run;
}

export interface KillWorkersOptions {
  /** Whether the work is done: checked before each kill. */
  settled(): Promise<boolean>;
  /** How long to wait before the next kill. */
  pauseMs(): number;
  /** Which live worker the next kill takes, given how many kills came before. */
  slot(kills: number): number;
  /** What `settled` waits for, for the error when `deadlineMs` passes first. */
  what: string;
  deadlineMs: number;
}

/** `count` workers on one home, some of them killed with SIGKILL while they work, each replaced at once. */
export interface WorkerPool {
  /** Every worker started, in the order they started, the killed ones too. */
  readonly runs: WorkerRun[];
  /** The workers running now, one per slot. */
  readonly live: WorkerRun[];
  /**
   * Until `settled()`, waits `pauseMs()`, kills the worker in `slot(kills)` with SIGKILL and starts another in
   * its place; throws when `deadlineMs` pass first (a worker that never finishes fails the test instead of
   * hanging it). Returns how many it killed.
   */
  killUntil(options: KillWorkersOptions): Promise<number>;
  /**
   * Stops the live workers with SIGTERM, once each has set up its signal handlers (a worker stopped before
   * would die of the signal), and expects each to exit 0 with nothing on stderr.
   */
  stop(): Promise<void>;
}

export function startWorkerPool(temp: TempHome, count: number): WorkerPool {
  const runs: WorkerRun[] = [];
  const start = () => {
    const run = startWorkerRun(temp);
    runs.push(run);
    return run;
  };
  const live = Array.from({ length: count }, start);
  return {
    runs,
    live,
    async killUntil({ settled, pauseMs, slot, what, deadlineMs }) {
      const deadline = performance.now() + deadlineMs;
      let kills = 0;
      while (!(await settled())) {
        if (performance.now() > deadline) throw new Error(`${what} did not happen after ${kills} kills`);
        await Bun.sleep(pauseMs());
        const index = slot(kills);
        const victim = live[index] as WorkerRun;
        victim.killedAt = Date.now();
        victim.process.kill("SIGKILL");
        await victim.process.exited;
        kills++;
        live[index] = start();
      }
      return kills;
    },
    async stop() {
      await waitFor(() => live.every((run) => run.output.includes('"worker-started"')), {
        what: "the workers starting",
        timeoutMs: 30_000,
      });
      for (const run of live) run.process.kill("SIGTERM");
      for (const run of live) {
        expect(await run.process.exited).toBe(0);
        expect(await run.stderr).toBe("");
      }
    },
  };
}
