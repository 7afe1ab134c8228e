import { describe, expect, it } from "bun:test";
import { createMemoryStore, type Store } from "@uwf/cas";
import { sampleSchedule, sampleWorkflow } from "@uwf/cas/test";
import { defaultConfig, type Schedule, type ThreadRecord } from "@uwf/protocol";
import { ulid } from "ulid";
import { fireDueSchedules, triggerSchedule } from "./fire-due-schedules.ts";

const HOUR = 3_600_000;

/** A fire time on the hour, `hours` from now (negative: in the past). */
function onTheHour(hours: number): string {
  return new Date(Math.floor(Date.now() / HOUR) * HOUR + hours * HOUR).toISOString();
}

/** A memory store with the sample workflow registered as `review-loop`, and this schedule of it (hourly). */
async function storeWith(schedule: Partial<Schedule>): Promise<Store> {
  const store = createMemoryStore();
  const workflow = sampleWorkflow();
  const address = await store.objects.put(workflow);
  await store.refs.setWorkflow({ name: workflow.name, address, updatedAt: new Date().toISOString() });
  await store.refs.createSchedule(sampleSchedule(schedule));
  return store;
}

function fire(store: Store, queued = false) {
  return fireDueSchedules({
    store,
    config: defaultConfig(),
    cwd: "/work",
    home: "/work/.uwf",
    now: () => new Date(),
    newId: ulid,
    queued,
  });
}

/** Sets the schedule's next fire time back to the current hour, as if the hour had come again. */
async function dueAgain(store: Store): Promise<void> {
  const schedule = await store.refs.getSchedule("nightly");
  if (schedule === null) throw new Error("the schedule is gone");
  await store.refs.putSchedule({ ...schedule, nextFireAt: onTheHour(0) });
}

async function threadsOf(store: Store): Promise<ThreadRecord[]> {
  return (await store.refs.listThreads({ scheduledBy: "nightly" })).threads;
}

describe("fireDueSchedules", () => {
  it("without catch-up fires only the latest missed time, and moves the schedule past now", async () => {
    const store = await storeWith({ nextFireAt: onTheHour(-3) });
    const fires = await fire(store);
    expect(fires).toEqual([
      expect.objectContaining({
        schedule: "nightly",
        fireTime: onTheHour(0),
        thread: expect.any(String),
        queued: false,
      }),
    ]);
    const [thread] = await threadsOf(store);
    expect(thread).toMatchObject({ id: fires[0]?.thread, status: "active", scheduledBy: { fireTime: onTheHour(0) } });
    expect(await store.refs.getSchedule("nightly")).toMatchObject({
      nextFireAt: onTheHour(1),
      lastFireAt: onTheHour(0),
      lastThread: thread?.id,
    });
    expect(await fire(store)).toEqual([]);
  });

  it("with catch-up fires each missed time inside the window, oldest first, and skips the older ones", async () => {
    const store = await storeWith({ nextFireAt: onTheHour(-5), catchUp: "150m", overlap: "allow" });
    const fires = await fire(store, true);
    // 150 minutes back from now reaches at most two whole hours back.
    const inWindow = [-2, -1, 0].map(onTheHour).filter((time) => Date.parse(time) >= Date.now() - 150 * 60_000);
    expect(fires.map((entry) => entry.fireTime)).toEqual(inWindow);
    expect(fires.every((entry) => entry.thread !== null && entry.queued)).toBe(true);
    expect((await threadsOf(store)).map((thread) => thread.queued)).toEqual(inWindow.map(() => true));
  });

  it("reports one missed fire when every due time is older than the catch-up window", async () => {
    const store = await storeWith({ cron: "0 0 1 1 *", nextFireAt: "2020-01-01T00:00:00.000Z", catchUp: "1h" });
    const fires = await fire(store);
    expect(fires).toHaveLength(1);
    expect(fires[0]).toMatchObject({ thread: null, skipped: "missed" });
    expect(await threadsOf(store)).toEqual([]);
    expect(Date.parse((await store.refs.getSchedule("nightly"))?.nextFireAt ?? "")).toBeGreaterThan(Date.now());
  });

  it("skips a fire while the last thread runs (overlap skip), and starts one once it stopped", async () => {
    const store = await storeWith({ nextFireAt: onTheHour(0) });
    const [first] = await fire(store);
    const firstThread = first?.thread as string;
    await dueAgain(store);
    expect(await fire(store)).toEqual([expect.objectContaining({ thread: null, skipped: "overlap" })]);
    const record = (await store.refs.getThread(firstThread)) as ThreadRecord;
    await store.refs.updateThread(firstThread, record.head, { status: "ended" });
    await dueAgain(store);
    expect(await fire(store)).toEqual([expect.objectContaining({ thread: expect.any(String) })]);
    expect(await threadsOf(store)).toHaveLength(2);
  });

  it("buffers one fire while the last thread runs (buffer-one) and starts it on a pass after the thread stopped", async () => {
    const store = await storeWith({ nextFireAt: onTheHour(0), overlap: "buffer-one" });
    const [first] = await fire(store);
    const again = async () => {
      await dueAgain(store);
      return fire(store);
    };
    expect(await again()).toEqual([expect.objectContaining({ thread: null, skipped: "buffered" })]);
    expect(await again()).toEqual([expect.objectContaining({ thread: null, skipped: "overlap" })]);
    expect((await store.refs.getSchedule("nightly"))?.buffered).toBe(onTheHour(0));
    // Nothing due and the thread still running: the buffered fire waits.
    expect(await fire(store)).toEqual([]);
    const record = (await store.refs.getThread(first?.thread as string)) as ThreadRecord;
    await store.refs.updateThread(record.id, record.head, { status: "failed" });
    const started = await fire(store);
    expect(started).toEqual([expect.objectContaining({ fireTime: onTheHour(0), thread: expect.any(String) })]);
    expect((await store.refs.getSchedule("nightly"))?.buffered).toBeNull();
  });

  it("reports a fire whose workflow is gone as failed and moves the schedule on", async () => {
    const store = await storeWith({ nextFireAt: onTheHour(0), workflow: "gone" });
    const fires = await fire(store);
    expect(fires).toEqual([expect.objectContaining({ thread: null, skipped: "failed" })]);
    expect(fires[0]?.problem).toContain("gone");
    expect((await store.refs.getSchedule("nightly"))?.nextFireAt).toBe(onTheHour(1));
  });

  it("fires no paused schedule, but trigger fires it now and leaves its next fire time", async () => {
    const store = await storeWith({ nextFireAt: null, paused: true });
    expect(await fire(store)).toEqual([]);
    const options = { store, config: defaultConfig(), cwd: "/w", home: "/w/.uwf", now: () => new Date(), newId: ulid };
    const triggered = await triggerSchedule({ ...options, name: "nightly", queued: true });
    expect(triggered).toMatchObject({ thread: expect.any(String), queued: true });
    expect(await store.refs.getSchedule("nightly")).toMatchObject({ paused: true, nextFireAt: null });
    await expect(triggerSchedule({ ...options, name: "other", queued: true })).rejects.toMatchObject({
      code: "schedule-not-found",
      data: { known: ["nightly"] },
    });
  });
});
