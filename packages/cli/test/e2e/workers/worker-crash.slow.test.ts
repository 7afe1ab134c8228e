import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { join } from "node:path";
import type { Store } from "@uwf/cas";
import { startTestPostgres, type TestPostgres } from "@uwf/cas/test";
import { startThread } from "@uwf/engine";
import {
  type CliEvent,
  defaultConfig,
  listResultSchema,
  type ThreadStepNode,
  threadStepNodeSchema,
} from "@uwf/protocol";
import { ulid } from "ulid";
import { openStoreFromEnvironment } from "../../../src/home/open-store.ts";
import { expectStoreVerifies } from "../../helpers/cas-nodes.ts";
import { parseEvents } from "../../helpers/cli-events.ts";
import { createTempHome, FIXTURES, type TempHome } from "../../helpers/temp-home.ts";
import { startWorkerPool, type WorkerRun } from "../../helpers/worker-pool.ts";

/**
 * The crash test (#20 item 4): workers killed with SIGKILL at random points of their steps, each
 * restarted at once, while the others go on. Whatever a kill interrupts, every thread must end with
 * exactly its workflow's steps, no head may ever get two steps from one parent, and `cas verify` must
 * find nothing wrong.
 */

const WORKFLOW = join(FIXTURES, "workflows/three-steps.yaml");
const ROLES = ["planner", "doer", "checker"];
const WORKERS = 4;
const KILL_EVERY_MS = 1000;
const AGENT_PAUSE_SECONDS = 0.2;

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});

interface CrashRun {
  temp: TempHome;
  store: Store;
  threads: string[];
  runs: WorkerRun[];
  kills: number;
  /** What each worker printed, in the order they started. */
  events: CliEvent[][];
}

/**
 * Queues `threadCount` threads (in-process, through the engine, since a `uwf start` each would take
 * longer than the test), runs `WORKERS` workers over them and, every second until every thread has
 * settled, kills one of them (in turn) with SIGKILL and starts a new one in its place. Then stops the
 * survivors with SIGTERM.
 */
async function crashRun(env: Record<string, string>, threadCount: number): Promise<CrashRun> {
  const temp = createTempHome({ env });
  temp.writeConfig(
    [
      "agents:",
      "  plan-then-do:",
      "    command: sh",
      // A pause before answering, so that kills land in steps and the run lasts long enough for many of them.
      `    args: ["-c", "sleep ${AGENT_PAUSE_SECONDS}; exec sh \\"$0\\"", "${join(FIXTURES, "agents/plan-then-do.sh")}"]`,
      "defaultAgent: plan-then-do",
      // Short waits: idle workers look again soon, and a failing step would be retried soon.
      "worker: { retries: 2, backoffMs: 20, pollMs: 50 }",
    ].join("\n"),
  );
  const store = await openStoreFromEnvironment(temp.home, env);
  const threads: string[] = [];
  for (let index = 0; index < threadCount; index++) {
    const record = await startThread({
      store,
      config: defaultConfig(),
      workflowReference: WORKFLOW,
      // A prompt of its own, so that no two threads share a start node.
      prompt: `task ${index}`,
      queued: true,
      cwd: temp.work,
      home: temp.home,
      now: () => new Date(),
      newId: ulid,
    });
    threads.push(record.id);
  }

  const pool = startWorkerPool(temp, WORKERS);
  // Settled: ended, or failed (which the checks then report) rather than waiting out the deadline.
  const allSettled = async () => {
    const { threads: records } = await store.refs.listThreads({});
    return records.every((record) => record.status !== "active");
  };
  const kills = await pool.killUntil({
    settled: allSettled,
    pauseMs: () => KILL_EVERY_MS,
    slot: (before) => before % WORKERS,
    what: "every thread settling",
    deadlineMs: 150_000,
  });
  await pool.stop();
  const { runs } = pool;
  const events = (await Promise.all(runs.map((run) => run.stdout))).map((stdout) =>
    parseEvents(stdout, { killed: true }),
  );
  return { temp, store, threads, runs, kills, events };
}

/** Every thread-step node in the store, reachable or not, by address. */
async function allSteps(store: Store): Promise<Map<string, ThreadStepNode>> {
  const steps = new Map<string, ThreadStepNode>();
  for await (const address of store.objects.list()) {
    const step = threadStepNodeSchema.safeParse(await store.objects.get(address));
    if (step.success) steps.set(address, step.data);
  }
  return steps;
}

/** The checks every crash run must pass, whatever its kills interrupted. */
async function checkCrashRun({ temp, store, threads, runs, events }: CrashRun): Promise<CrashFigures> {
  const steps = await allSteps(store);
  const threadOfStart = new Map<string, string>();
  // Each thread's chain, from its head back to its start: the workflow's roles, in order.
  const reachable = new Map<string, string>();
  for (const thread of threads) {
    const record = await store.refs.getThread(thread);
    expect(record).toMatchObject({ status: "ended", stepCount: ROLES.length });
    if (record !== null) threadOfStart.set(record.start, thread);
    const chain: string[] = [];
    for (let address = record?.head ?? null; address !== null && address !== record?.start; ) {
      const step = steps.get(address);
      if (step === undefined) throw new Error(`thread ${thread}: its chain reaches ${address}, not a step`);
      chain.unshift(step.role);
      reachable.set(address, thread);
      address = step.prev ?? step.start;
    }
    expect(chain).toEqual(ROLES);
  }

  // No two reachable steps share a parent, and every step a worker reported recorded is still reachable:
  // a recorded step was never replaced, since the head moves only by compare-and-swap.
  const parentOf = (step: ThreadStepNode) => step.prev ?? step.start;
  const reachableParents = [...reachable.keys()].map((address) => parentOf(steps.get(address) as ThreadStepNode));
  expect(new Set(reachableParents).size).toBe(reachableParents.length);
  const recorded = new Set(events.flat().flatMap((event) => (event.type === "step-finished" ? [event.address] : [])));
  expect([...recorded].filter((address) => !reachable.has(address))).toEqual([]);

  // A step that is not reachable was written by a worker killed before it moved the head: it follows a
  // reachable step's parent, and a killed worker started that step of that thread and never finished it.
  const cutShort = new Set(
    runs.flatMap((run, index) => (run.killedAt !== undefined ? unfinishedSteps(events[index] ?? []) : [])),
  );
  const lost = [...steps.entries()].filter(([address]) => !reachable.has(address));
  for (const [address, step] of lost) {
    expect(reachableParents).toContain(parentOf(step));
    expect(recorded.has(address)).toBe(false);
    const thread = reachable.get(parentOf(step)) ?? threadOfStart.get(step.start);
    expect(cutShort).toContain(`${thread} #${depthOf(steps, parentOf(step)) + 1}`);
  }

  await expectStoreVerifies(temp);
  // A worker killed after its thread's last step, before it let the thread go, leaves its lease behind,
  // on an ended thread: no one steps that thread again, so the lease just expires. Any other is a bug.
  const killedPids = new Set(runs.flatMap((run) => (run.killedAt !== undefined ? [run.process.pid] : [])));
  for (const lease of await store.refs.listLeases()) {
    expect(killedPids).toContain(lease.pid);
    expect((await store.refs.getThread(lease.threadId))?.status).toBe("ended");
  }
  // and `uwf list --running` does not count such a lease, whose holder is gone.
  const running = listResultSchema.parse((await temp.uwf(["list", "--running", "--json"])).json());
  expect(running.threads).toEqual([]);
  return { lost: lost.length, cutShort: cutShort.size, takeoverMs: takeoverDelays(runs, events) };
}

interface CrashFigures {
  /** Steps written by a killed worker and never recorded. */
  lost: number;
  /** Steps that a kill interrupted, after their agent started. */
  cutShort: number;
  /** For each thread a kill cut short, how long until another worker claimed it. */
  takeoverMs: number[];
}

/** For each thread a kill cut a step of short, the time from the kill to the thread's next claim. */
function takeoverDelays(runs: WorkerRun[], events: CliEvent[][]): number[] {
  const claims = events.flat().flatMap((event) => (event.type === "thread-claimed" ? [event] : []));
  return runs.flatMap((run, index) => {
    const { killedAt } = run;
    if (killedAt === undefined) return [];
    return unfinishedSteps(events[index] ?? []).flatMap((step) => {
      const thread = step.split(" ")[0];
      const next = claims
        .filter((claim) => claim.thread === thread && Date.parse(claim.at) >= killedAt)
        .map((claim) => Date.parse(claim.at) - killedAt);
      // None when the kill came after the thread's last step was recorded but before the worker said so.
      return next.length === 0 ? [] : [Math.min(...next)];
    });
  });
}

/** `THREAD #N` for each step a worker's events started and neither finished nor failed. */
function unfinishedSteps(events: CliEvent[]): string[] {
  const open = new Set<string>();
  for (const event of events) {
    if (event.type === "step-started") open.add(`${event.thread} #${event.number}`);
    if (event.type === "step-finished" || event.type === "step-failed") open.delete(`${event.thread} #${event.number}`);
  }
  return [...open];
}

/** How many steps lead to `address`: 0 for a thread's start node. */
function depthOf(steps: Map<string, ThreadStepNode>, address: string): number {
  let depth = 0;
  for (let step = steps.get(address); step !== undefined; step = steps.get(step.prev ?? "")) depth++;
  return depth;
}

const BACKENDS = [
  { name: "PostgreSQL", threads: 200, env: () => ({ UWF_STORE: server.newStoreUrl() }) },
  // Several local workers share a home's refs.db: a smaller run, since its claims queue on one file.
  { name: "the embedded store", threads: 60, env: () => ({}) },
];

for (const backend of BACKENDS) {
  describe(`on ${backend.name}`, () => {
    let run: CrashRun | undefined;
    afterAll(async () => {
      await run?.store.close();
      run?.temp.cleanup();
    });

    it(`${WORKERS} workers, one killed with SIGKILL every second and restarted, take ${backend.threads} threads to their ends, never two steps from one head`, async () => {
      const began = performance.now();
      run = await crashRun(backend.env(), backend.threads);
      const { lost, cutShort, takeoverMs } = await checkCrashRun(run);
      const sorted = takeoverMs.toSorted((left, right) => left - right);
      // Kills that landed between steps only would prove little: some must have cut a step short.
      expect(cutShort).toBeGreaterThan(0);
      console.log(
        `crash test on ${backend.name}: ${backend.threads} threads, ${run.kills} kills (${cutShort} mid-step), ` +
          `${lost} step(s) written by a killed worker and never recorded, ${Math.round(performance.now() - began)} ms; ` +
          `a cut-short thread was claimed again after ${sorted[Math.floor(sorted.length / 2)]} ms (median), ${sorted.at(-1)} ms (most)`,
      );
    }, 180_000);
  });
}
