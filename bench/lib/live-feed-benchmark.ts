/**
 * Issue 30 (`uwf ui`, live): how soon a step another process records reaches the store's change feed.
 * A separate `uwf step` process (the compiled binary, the `/bin/sh` command agent) records each step;
 * the feed (the engine's watchStore, what `uwf ui` serves its pages from, with its default change check)
 * runs in this process on its own store. Measured from the step's record update (its `updatedAt`,
 * written by the stepping process just before its commit; one machine, one clock) to the
 * `thread-updated` event at the feed's listener, and from the step's `completedAt` to `step-finished`.
 * The SSE hop of `uwf ui` (a write to an open local socket) is not in it. See docs/performance.md.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { copyStore, openFileStore, openPostgresStore, type Store } from "../../packages/cas/src/index.ts";
import { startTestPostgres } from "../../packages/cas/src/testing/index.ts";
import { watchStore } from "../../packages/engine/src/index.ts";
import type { LiveEvent } from "../../packages/protocol/src/index.ts";
import { generateStore } from "../generate-store.ts";
import { type Summary, summarize } from "./measure.ts";

export interface LiveLatencyRun {
  backend: "embedded" | "postgres";
  /** The store's size, as a label. */
  store: string;
  steps: number;
  /** From the step's record update (`updatedAt`) to `thread-updated` at the listener. */
  recordToEvent: Summary;
  /** From the step's `completedAt` (its agent done) to `step-finished` at the listener. */
  completedToEvent: Summary;
}

export interface LiveLatencyOptions {
  backend: "embedded" | "postgres";
  store: string;
  binary: string;
  work: string;
  /** The environment of the `uwf step` processes (UWF_HOME, and UWF_STORE on PostgreSQL). */
  env: Record<string, string | undefined>;
  /** Opens the watched store (another one than the stepping processes'). */
  open(): Promise<Store>;
  /** An active thread of bench/fixtures/loop.yaml, which the `sh` agent never ends; reset to where it was after. */
  threadId: string;
  /** The agent alias of the config (`sh`). */
  agent: string;
  steps: number;
}

/** The median must be at most this (the target). */
export const LIVE_TARGET_MS = 500;

export async function measureLiveLatency(options: LiveLatencyOptions): Promise<LiveLatencyRun> {
  const store = await options.open();
  const arrivals: { event: LiveEvent; at: number }[] = [];
  const failures: unknown[] = [];
  const watch = await watchStore({
    store,
    onEvent: (event) => arrivals.push({ event, at: Date.now() }),
    onError: (error) => failures.push(error),
  });
  const original = await store.refs.getThread(options.threadId);
  if (original === null) throw new Error(`no thread ${options.threadId}`);
  const recordToEvent: number[] = [];
  const completedToEvent: number[] = [];
  try {
    for (let step = 1; step <= options.steps; step++) {
      // Steps start at any phase of the embedded store's 100 ms check.
      await Bun.sleep(Math.random() * 100);
      const stepping = Bun.spawn([options.binary, "step", options.threadId, "--agent", options.agent], {
        cwd: options.work,
        env: options.env,
        stdout: "ignore",
        stderr: "pipe",
      });
      if ((await stepping.exited) !== 0) {
        throw new Error(`uwf step failed: ${await new Response(stepping.stderr).text()}`);
      }
      const number = original.stepCount + step;
      const deadline = Date.now() + 10_000;
      const find = () =>
        arrivals.find(
          ({ event }) =>
            event.type === "thread-updated" && event.thread === options.threadId && event.record?.stepCount === number,
        );
      while (find() === undefined) {
        if (failures.length > 0) throw failures[0];
        if (Date.now() > deadline) throw new Error(`step ${number} did not reach the feed within 10 s`);
        await Bun.sleep(5);
      }
      const updated = find() as { event: LiveEvent & { type: "thread-updated" }; at: number };
      recordToEvent.push(updated.at - Date.parse(updated.event.record?.updatedAt ?? ""));
      const finished = arrivals.find(
        ({ event }) => event.type === "step-finished" && event.thread === options.threadId && event.number === number,
      );
      if (finished === undefined || finished.event.type !== "step-finished")
        throw new Error(`no step-finished ${number}`);
      completedToEvent.push(finished.at - Date.parse(finished.event.completedAt));
    }
  } finally {
    await watch.stop();
    const now = await store.refs.getThread(options.threadId);
    if (now !== null) {
      const { head, stepCount, status, next } = original;
      await store.refs.updateThread(options.threadId, now.head, {
        head,
        stepCount,
        status,
        next,
        updatedAt: new Date().toISOString(),
      });
    }
    await store.close();
  }
  return {
    backend: options.backend,
    store: options.store,
    steps: options.steps,
    recordToEvent: summarize(recordToEvent),
    completedToEvent: summarize(completedToEvent),
  };
}

export function checkLiveTargets(
  runs: readonly LiveLatencyRun[],
): { target: string; measured: string; met: boolean }[] {
  return runs.map((run) => ({
    target: `a step recorded by another process reaches the live feed within ${LIVE_TARGET_MS} ms (median) [${run.store}]`,
    measured: `median ${run.recordToEvent.medianMs} ms, max ${run.recordToEvent.maxMs} ms over ${run.steps} steps`,
    met: run.recordToEvent.medianMs <= LIVE_TARGET_MS,
  }));
}

export function formatLiveLatency(runs: readonly LiveLatencyRun[]): string[] {
  return [
    "| live feed: a step by another process (`uwf step`) | updatedAt → thread-updated, median ms (min–max) | completedAt → step-finished, median ms |",
    "|---|--:|--:|",
    ...runs.map(
      (run) =>
        `| ${run.store}, ${run.steps} steps | ${run.recordToEvent.medianMs} (${run.recordToEvent.minMs}–${run.recordToEvent.maxMs}) | ${run.completedToEvent.medianMs} |`,
    ),
  ];
}

/** The `/bin/sh` agent of the loop workflow that never says it is done. */
export const LIVE_AGENT = {
  sh: {
    command: "/bin/sh",
    args: [
      "-c",
      `printf -- '---\\nn: %s\\ndone: false\\nsummary: live step %s\\n---\\n\\nDid step %s.\\n' "$UWF_STEP" "$UWF_STEP" "$UWF_STEP"`,
    ],
  },
};

// `bun bench/lib/live-feed-benchmark.ts [--threads N] [--steps N]`: this benchmark alone, on a generated
// embedded store of N threads and on PostgreSQL (the same store copied there).
if (import.meta.main) {
  const { values } = parseArgs({
    options: { threads: { type: "string", default: "10000" }, steps: { type: "string", default: "30" } },
  });
  const repositoryRoot = resolve(import.meta.dir, "../..");
  const binary = join(repositoryRoot, "packages/cli/dist/uwf");
  if (!existsSync(binary)) throw new Error("build the binary first: bun run build");
  const root = mkdtempSync(join(tmpdir(), "uwf-live-bench-"));
  try {
    const generated = await generateStore({
      home: join(root, "home"),
      fillerThreads: Number(values.threads),
      chains: [{ steps: 1 }],
      cwd: root,
    });
    writeFileSync(join(generated.home, "config.yaml"), `${JSON.stringify({ agents: LIVE_AGENT })}\n`);
    const threadId = generated.chains[0]?.threadIds[0] as string;
    const { UWF_STORE: _store, ...rest } = process.env;
    const env = { ...rest, UWF_HOME: generated.home, NO_COLOR: "1" };
    const label = `${generated.threads.toLocaleString("en-US")} threads`;
    const runs: LiveLatencyRun[] = [];
    const steps = Number(values.steps);
    const common = { binary, work: root, agent: "sh", threadId, steps };
    runs.push(
      await measureLiveLatency({
        ...common,
        backend: "embedded",
        store: `embedded, ${label}`,
        env,
        open: () => openFileStore(generated.home),
      }),
    );
    const url = (await startTestPostgres()).newStoreUrl();
    const [source, target] = [await openFileStore(generated.home), await openPostgresStore(url)];
    await copyStore(source, target);
    await Promise.all([source.close(), target.close()]);
    runs.push(
      await measureLiveLatency({
        ...common,
        backend: "postgres",
        store: `PostgreSQL, ${label}`,
        env: { ...env, UWF_STORE: url },
        open: () => openPostgresStore(url),
      }),
    );
    console.log(formatLiveLatency(runs).join("\n"));
    for (const check of checkLiveTargets(runs))
      console.log(`${check.met ? "met" : "MISSED"}: ${check.target}: ${check.measured}`);
    console.log(
      JSON.stringify(
        runs.map((run) => ({ ...run, recordToEvent: { ...run.recordToEvent, samplesMs: undefined } })),
        null,
        1,
      ),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  process.exit(0);
}
