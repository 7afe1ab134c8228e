import { cpus } from "node:os";
import { join } from "node:path";
import type { SuiteContext } from "./process-groups.ts";
import type { BenchResults } from "./report.ts";
import {
  type Backend,
  BENCH_POLL_MS,
  type BenchStore,
  LEASE_LIFETIME_MS,
  measureTakeover,
  measureWorkerScaling,
  type TakeoverRun,
  type WorkerBenchOptions,
} from "./worker-benchmarks.ts";

export interface WorkersPlan {
  threads: number;
  /** Worker processes measured side by side, and threads one process steps at once. */
  counts: number[];
  concurrency: number[];
  /** The takeover from another host, which waits out a 60 s lease. */
  otherHost: boolean;
}

/**
 * Issue 20 item 5: steps per second of worker processes over a fresh queue on each backend, then the takeover of
 * a killed worker's thread (SIGKILL and SIGTERM on this host on both backends; SIGKILL from another host,
 * which waits out the lease, on the embedded store in the full run).
 */
export async function measureWorkers(
  context: SuiteContext,
  plan: WorkersPlan,
  newStoreUrl: () => string,
): Promise<BenchResults["workers"]> {
  let stores = 0;
  const options: WorkerBenchOptions = {
    binary: context.binary,
    work: context.work,
    environment: context.environment,
    newStore: (backend: Backend, name: string): BenchStore => {
      const home = join(context.temporaryRoot, `workers-${++stores}-${name}`);
      return backend === "postgres" ? { backend, home, url: newStoreUrl() } : { backend, home };
    },
    progress: context.progress,
  };
  const backends: Backend[] = ["embedded", "postgres"];
  const throughput = await measureWorkerScaling(options, {
    backends,
    workers: plan.counts,
    concurrency: plan.concurrency,
    threads: plan.threads,
  });
  const takeover: TakeoverRun[] = [];
  for (const backend of backends) {
    for (const signal of ["SIGKILL", "SIGTERM"] as const) {
      takeover.push(await measureTakeover(options, { backend, signal, otherHost: false }));
    }
  }
  if (plan.otherHost) {
    takeover.push(await measureTakeover(options, { backend: "embedded", signal: "SIGKILL", otherHost: true }));
  }
  return {
    cpus: cpus().length,
    threads: plan.threads,
    pollMs: BENCH_POLL_MS,
    leaseLifetimeMs: LEASE_LIFETIME_MS,
    throughput,
    takeover,
  };
}
