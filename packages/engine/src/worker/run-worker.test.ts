import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createMemoryStore, type Store } from "@uwf/cas";
import { type CliEvent, type Config, defaultConfig, type ThreadRecord } from "@uwf/protocol";
import { stepThread } from "../step/step-thread.ts";
import { startThread } from "../thread/start-thread.ts";
import { type RunWorkerOptions, runWorker } from "./run-worker.ts";

const FIXTURES = resolve(import.meta.dir, "../../test/fixtures");
const LINEAR = join(FIXTURES, "linear.yaml");
const SCRIPTED = `scripted:${join(FIXTURES, "linear.scenario.yaml")}`;
const REVIEW = join(FIXTURES, "review-fan-out.yaml");
const REVIEW_AGENT = `scripted:${join(FIXTURES, "review-fan-out.scenario.yaml")}`;
/** An agent that fails every step: exit 3. */
const FAILING: Config = {
  ...defaultConfig(),
  agents: { failing: { command: "sh", args: ["-c", "cat >/dev/null; echo broken >&2; exit 3"] } },
};

let home: string;
let store: Store;
let ids = 0;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "uwf-worker-"));
  store = createMemoryStore();
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

async function start(queued: boolean, config: Config = defaultConfig(), workflow = LINEAR): Promise<ThreadRecord> {
  const id = `01JW0RKER${String(ids++).padStart(17, "0")}`;
  return startThread({
    store,
    config,
    workflowReference: workflow,
    prompt: "Write hello.txt",
    threadCwd: undefined,
    queued,
    cwd: home,
    home,
    now: () => new Date(),
    newId: () => id,
  });
}

function work(overrides: Partial<RunWorkerOptions> = {}) {
  const events: CliEvent[] = [];
  const done = runWorker({
    store,
    config: defaultConfig(),
    home,
    host: "here",
    name: "here:1",
    now: () => new Date(),
    concurrency: 2,
    once: true,
    pollMs: 10,
    retry: { retries: 2, backoffMs: 1, backoffMaxMs: 5 },
    defaultAgent: SCRIPTED,
    stop: new AbortController().signal,
    graceMs: 1000,
    abort: new AbortController().signal,
    onEvent: async (event) => {
      events.push(event);
    },
    onStderr: () => {},
    onWarning: (message) => {
      throw new Error(`unexpected warning: ${message}`);
    },
    ...overrides,
  });
  return { done, events };
}

const typesOf = (events: CliEvent[], thread: string) =>
  events.filter((event) => event.thread === thread).map((event) => event.type);

describe("runWorker", () => {
  it("fires a due schedule with `schedules`, queues its thread and steps it; fires none without", async () => {
    const schedule = {
      name: "due",
      workflow: LINEAR,
      cron: "0 * * * *",
      tz: null,
      prompt: "Write hello.txt",
      inputs: {},
      overlap: "skip" as const,
      catchUp: null,
      queue: false,
      paused: false,
      source: "command" as const,
      // The top of this hour: a fire time of "0 * * * *" already due and the newest one, whenever the test runs
      // (a minute before it, the hour turning mid-test, fired the newer time).
      nextFireAt: new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString(),
      lastFireAt: null,
      lastThread: null,
      buffered: null,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    };
    await store.refs.createSchedule(schedule);
    expect(await work().done).toMatchObject({ claimed: 0 });
    expect((await store.refs.listThreads({ scheduledBy: "due" })).total).toBe(0);

    const { done, events } = work({ schedules: { cwd: home, newId: () => "01JW0RKERSCHED000000000000" } });
    expect(await done).toMatchObject({ claimed: 1, steps: 2 });
    const fired = events.find((event) => event.type === "schedule-fired");
    expect(fired).toMatchObject({ schedule: "due", thread: "01JW0RKERSCHED000000000000", queued: true });
    expect(await store.refs.getThread("01JW0RKERSCHED000000000000")).toMatchObject({
      status: "ended",
      queued: true,
      scheduledBy: { schedule: "due", fireTime: schedule.nextFireAt },
    });
    // Fired before it claimed: the event comes before the claim of its thread.
    expect(events.map((event) => event.type).indexOf("schedule-fired")).toBeLessThan(
      events.map((event) => event.type).indexOf("thread-claimed"),
    );
  });

  it("cancels a claimed thread whose expired lease carried a cancel request, running no step of it", async () => {
    const thread = await start(true);
    // A holder on another host was asked to cancel the thread, then died: its lease expires with the request.
    const lease = { ttlMs: 500, pid: 4242, host: "there", now: new Date(Date.now() - 1000) };
    await store.refs.acquireLease(thread.id, lease);
    expect(await store.refs.requestCancel(thread.id, new Date(Date.now() - 900))).not.toBeNull();

    const { done, events } = work();
    expect(await done).toMatchObject({ claimed: 1, steps: 0 });
    expect(typesOf(events, thread.id)).toEqual(["thread-claimed", "thread-released"]);
    expect(events.at(-2)).toMatchObject({ type: "thread-released", status: "cancelled", reason: "cancelled" });
    expect(await store.refs.getThread(thread.id)).toMatchObject({ status: "cancelled", stepCount: 0 });
    expect(await store.refs.listLeases()).toEqual([]);
  });

  it("with --once, claims the work its idle pass made (branches a crash left unmade), and runs it before stopping", async () => {
    const parent = await start(true, defaultConfig(), REVIEW);
    // The fan-out step recorded, its branches lost, as when the process was killed between the two.
    const crashing: Store = {
      ...store,
      refs: Object.assign(Object.create(store.refs), {
        createBranches: async () => {
          throw new Error("killed");
        },
      }),
    };
    const step = {
      store: crashing,
      config: defaultConfig(),
      home,
      now: () => new Date(),
      threadId: parent.id,
      defaultAgent: REVIEW_AGENT,
      signal: new AbortController().signal,
      host: "here",
      onProgress: () => {},
      onStderr: () => {},
    };
    await expect(stepThread(step)).rejects.toThrow("killed");
    expect(await store.refs.getThread(parent.id)).toMatchObject({ status: "waiting", queued: true });
    expect(await store.refs.listBranches(parent.id)).toEqual([]);

    const { done } = work({ defaultAgent: REVIEW_AGENT });
    expect(await done).toMatchObject({ reason: "idle" });
    expect(await store.refs.getThread(parent.id)).toMatchObject({ status: "ended", stepCount: 2 });
    const links = await store.refs.listBranches(parent.id);
    expect(links.map((link) => link.key)).toEqual(["security", "speed", "style"]);
    for (const link of links) expect(await store.refs.getThread(link.thread)).toMatchObject({ status: "ended" });
  });

  it("steps every queued thread to its end, and leaves threads started without --queue alone", async () => {
    const queued = [await start(true), await start(true), await start(true)];
    const local = await start(false);
    const { done, events } = work();
    expect(await done).toMatchObject({ reason: "idle", steps: 6, claimed: 3, failed: 0 });
    for (const thread of queued) {
      expect(await store.refs.getThread(thread.id)).toMatchObject({ status: "ended", stepCount: 2 });
      expect(typesOf(events, thread.id)).toEqual([
        "thread-claimed",
        "step-started",
        "step-finished",
        "step-started",
        "step-finished",
        "thread-ended",
        "thread-released",
      ]);
    }
    expect(await store.refs.getThread(local.id)).toMatchObject({ status: "active", stepCount: 0 });
    expect(events.at(-1)).toMatchObject({ type: "worker-stopped", worker: "here:1" });
    expect(await store.refs.listLeases()).toEqual([]);
  });

  it("retries a failing step with backoff, then sets the thread failed with the last error", async () => {
    const thread = await start(true, FAILING);
    const { done, events } = work({ config: FAILING, defaultAgent: "failing" });
    expect(await done).toMatchObject({ reason: "idle", steps: 0, claimed: 1, failed: 1 });
    const attempt = ["step-started", "step-failed"];
    const expected = [
      "thread-claimed",
      ...attempt,
      "step-retry",
      ...attempt,
      "step-retry",
      ...attempt,
      "thread-failed",
    ];
    expect(typesOf(events, thread.id) as string[]).toEqual([...expected, "thread-released"]);
    expect(events.filter((event) => event.type === "step-retry")).toMatchObject([
      { attempt: 2, attempts: 3, delayMs: 1 },
      { attempt: 3, attempts: 3, delayMs: 2 },
    ]);
    const failed = await store.refs.getThread(thread.id);
    expect(failed).toMatchObject({ status: "failed", stepCount: 0, failure: { code: "agent-failed", attempts: 3 } });
    expect(failed?.failure?.message).toContain("broken");
    expect(await store.refs.listLeases()).toEqual([]);
  });

  it("stops after --max-steps, letting the threads it holds go as they stand", async () => {
    const threads = [await start(true), await start(true)];
    const { done, events } = work({ maxSteps: 3, once: false });
    expect(await done).toMatchObject({ reason: "max-steps", steps: 3 });
    const records = await Promise.all(threads.map((thread) => store.refs.getThread(thread.id)));
    expect(records.map((record) => record?.stepCount).sort()).toEqual([1, 2]);
    const released = events.filter((event) => event.type === "thread-released");
    expect(released.map((event) => event.reason).sort()).toEqual(["ended", "stopping"]);
    expect(await store.refs.listLeases()).toEqual([]);
  });

  it("claims nothing once stopped, and says why it stopped", async () => {
    await start(true);
    const stop = new AbortController();
    stop.abort("SIGTERM");
    const { done, events } = work({ stop: stop.signal, once: false });
    expect(await done).toMatchObject({ reason: "signal", steps: 0, claimed: 0 });
    expect(events.map((event) => event.type)).toEqual(["worker-started", "worker-stopped"]);
  });

  it("claims only threads of the workflow it is given", async () => {
    const thread = await start(true);
    const { done } = work({ workflow: "another" });
    expect(await done).toMatchObject({ reason: "idle", claimed: 0 });
    expect(await store.refs.getThread(thread.id)).toMatchObject({ status: "active" });
  });
});
