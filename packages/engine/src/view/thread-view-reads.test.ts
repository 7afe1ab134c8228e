import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import { listThreadViews } from "./list-thread-views.ts";
import { loadShownThread } from "./load-shown-thread.ts";
import { loadThreadLog } from "./load-thread-log.ts";

let kit: EngineTestKit;

beforeEach(() => {
  kit = createEngineTestKit();
});

afterEach(() => kit.cleanup());

const environment = () => ({ now: kit.now(), host: "engine-test" });

describe("loadShownThread", () => {
  it("gives an ended thread's record named by `thread`, and its step counts, and no wait", async () => {
    const { record } = await kit.finishedThread("Write it");
    const { shown, wait } = await loadShownThread(kit.store, record);
    expect(shown).toMatchObject({ thread: record.id, id: record.id, status: "ended", stepCount: 2 });
    expect(shown.counts).toBeDefined();
    expect(shown).not.toHaveProperty("deadline");
    expect(wait).toBeNull();
  });
});

describe("loadThreadLog", () => {
  it("gives the thread's steps oldest first, with its outcome", async () => {
    const { record, planner, doer } = await kit.finishedThread();
    const log = await loadThreadLog(kit.store, record);
    expect(log.thread).toBe(record.id);
    expect(log.steps.map((step) => [step.role, step.address])).toEqual([
      ["planner", planner],
      ["doer", doer],
    ]);
    expect(log.outcome).toEqual(record.outcome as NonNullable<typeof record.outcome>);
  });
});

describe("listThreadViews", () => {
  it("lists a page of threads newest first with the total, and the page's limit and offset", async () => {
    const first = await kit.finishedThread("one");
    const second = await kit.startThread({ prompt: "two" });
    const third = await kit.startThread({ prompt: "three" });
    const page = await listThreadViews(kit.store, { limit: 2, offset: 0 }, environment());
    expect(page.threads.map((thread) => thread.id)).toEqual([third.id, second.id]);
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 0 });
    const rest = await listThreadViews(kit.store, { offset: 2 }, environment());
    expect(rest.threads.map((thread) => thread.id)).toEqual([first.record.id]);
    expect(rest.limit).toBeNull();
    const ended = await listThreadViews(kit.store, { status: "ended" }, environment());
    expect(ended.threads.map((thread) => thread.id)).toEqual([first.record.id]);
  });

  it("lists a thread whose head is gone as corrupt and tells onUnreadable which one", async () => {
    const { record } = await kit.finishedThread();
    const broken = { ...record, id: kit.newId(), head: "0000000000000" };
    await kit.store.refs.createThread(broken);
    const unreadable: string[] = [];
    const listed = await listThreadViews(
      kit.store,
      {},
      { ...environment(), onUnreadable: (thread) => unreadable.push(thread.id) },
    );
    expect(listed.threads.map((thread) => [thread.id, thread.status])).toEqual([
      [broken.id, "corrupt"],
      [record.id, "ended"],
    ]);
    expect(unreadable).toEqual([broken.id]);
  });

  it("lists only the threads whose lease is held when asked for the running ones, each with its holder", async () => {
    const idle = await kit.startThread({ prompt: "idle" });
    const busy = await kit.startThread({ prompt: "busy" });
    const taken = await kit.store.refs.acquireLease(busy.id, {
      ttlMs: 60_000,
      pid: 4242,
      host: "elsewhere",
      now: kit.now(),
    });
    expect(taken.acquired).toBe(true);
    const running = await listThreadViews(kit.store, { running: true }, environment());
    expect(running.threads.map((thread) => thread.id)).toEqual([busy.id]);
    expect(running.threads[0]?.lease).toMatchObject({ host: "elsewhere", pid: 4242 });
    expect(running.total).toBe(1);
    expect(running.threads.map((thread) => thread.id)).not.toContain(idle.id);
  });

  it("lists only the forks of a thread named by a prefix of its id", async () => {
    const { record, planner } = await kit.finishedThread();
    const fork = await kit.fork(planner);
    await kit.startThread({ prompt: "unrelated" });
    const forks = await listThreadViews(
      kit.store,
      { forksOf: { thread: record.id.slice(0, 20), recursive: false } },
      environment(),
    );
    expect(forks.threads.map((thread) => thread.id)).toEqual([fork.id]);
  });
});
