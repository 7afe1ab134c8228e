import { describe, expect, it } from "bun:test";
import type { Schedule, ThreadRecord } from "@uwf/protocol";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import { ScheduleExistsError } from "../errors/schedule-exists-error.ts";
import { ThreadExistsError } from "../errors/thread-exists-error.ts";
import type { FireSchedule } from "../refs/schedule-refs.ts";
import type { CurrentFixture } from "./conformance-suite.ts";
import { sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";

const CREATED = "2026-05-01T08:00:00.000Z";
const FIRST = "2026-05-01T09:00:00.000Z";
const SECOND = "2026-05-01T10:00:00.000Z";
const THIRD = "2026-05-01T11:00:00.000Z";

/** A schedule that passes scheduleSchema, with the fields a test cares about overridden. */
export function sampleSchedule(overrides: Partial<Schedule> = {}): Schedule {
  return {
    name: "nightly",
    workflow: "review-loop",
    cron: "0 * * * *",
    tz: null,
    prompt: "Review what changed",
    inputs: {},
    overlap: "skip",
    catchUp: null,
    queue: false,
    paused: false,
    source: "command",
    nextFireAt: FIRST,
    lastFireAt: null,
    lastThread: null,
    buffered: null,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

/** A thread a fire of `schedule` at `fireTime` starts. */
function firedThread(index: number, schedule: string, fireTime: string): ThreadRecord {
  return sampleThreadRecord({ id: sampleThreadId(index), scheduledBy: { schedule, fireTime } });
}

function fireOf(overrides: Partial<FireSchedule> & { thread: ThreadRecord | null }): FireSchedule {
  return {
    name: "nightly",
    expectedNextFireAt: FIRST,
    nextFireAt: SECOND,
    fireTime: FIRST,
    updatedAt: FIRST,
    ...overrides,
  };
}

export function describeScheduleConformance(current: CurrentFixture): void {
  describe("schedules", () => {
    it("creates a schedule once, reads it back as a copy, lists by name, and deletes it", async () => {
      const { refs } = current().store;
      const schedule = sampleSchedule({ inputs: { pr: 42 }, tz: "Europe/Berlin" });
      await refs.createSchedule(schedule);
      await refs.createSchedule(sampleSchedule({ name: "early" }));
      await expect(refs.createSchedule(sampleSchedule({ prompt: "other" }))).rejects.toThrow(ScheduleExistsError);
      const read = await refs.getSchedule("nightly");
      expect(read).toEqual(schedule);
      if (read !== null) read.prompt = "changed";
      expect((await refs.getSchedule("nightly"))?.prompt).toBe("Review what changed");
      expect((await refs.listSchedules()).map((entry) => entry.name)).toEqual(["early", "nightly"]);
      expect(await refs.getSchedule("missing")).toBeNull();
      expect(await refs.deleteSchedule("early")).toBe(true);
      expect(await refs.deleteSchedule("early")).toBe(false);
      expect(await refs.listSchedules()).toEqual([schedule]);
    });

    it("refuses a schedule that breaks scheduleSchema, storing nothing", async () => {
      const { refs } = current().store;
      await expect(refs.createSchedule(sampleSchedule({ name: "has space" }))).rejects.toThrow(InvalidRecordError);
      await expect(refs.putSchedule(sampleSchedule({ nextFireAt: "tomorrow" }))).rejects.toThrow(InvalidRecordError);
      expect(await refs.listSchedules()).toEqual([]);
    });

    it("puts a schedule whether or not one of its name exists", async () => {
      const { refs } = current().store;
      await refs.putSchedule(sampleSchedule({ source: "workflow" }));
      await refs.putSchedule(sampleSchedule({ source: "workflow", cron: "0 9 * * *", updatedAt: FIRST }));
      expect(await refs.getSchedule("nightly")).toEqual(
        sampleSchedule({ source: "workflow", cron: "0 9 * * *", updatedAt: FIRST }),
      );
    });

    it("updates a schedule only while its updatedAt is the one expected", async () => {
      const { refs } = current().store;
      await refs.createSchedule(sampleSchedule());
      const pause = { paused: true, nextFireAt: null, updatedAt: FIRST };
      expect(await refs.updateSchedule("nightly", FIRST, pause)).toBe(false);
      expect(await refs.updateSchedule("missing", CREATED, pause)).toBe(false);
      expect(await refs.updateSchedule("nightly", CREATED, pause)).toBe(true);
      expect(await refs.getSchedule("nightly")).toEqual(sampleSchedule(pause));
      expect(await refs.updateSchedule("nightly", CREATED, { paused: false })).toBe(false);
      await expect(refs.updateSchedule("nightly", FIRST, { overlap: "never" } as object)).rejects.toThrow(
        InvalidRecordError,
      );
    });

    it("fires a time once: moves the next fire time, creates the thread and names it, or changes nothing", async () => {
      const { refs } = current().store;
      await refs.createSchedule(sampleSchedule());
      const thread = firedThread(1, "nightly", FIRST);
      expect(await refs.fireSchedule(fireOf({ thread }))).toBe(true);
      expect(await refs.getThread(thread.id)).toEqual(thread);
      expect(await refs.getSchedule("nightly")).toEqual(
        sampleSchedule({ nextFireAt: SECOND, lastFireAt: FIRST, lastThread: thread.id, updatedAt: FIRST }),
      );
      // The same fire again: the time has moved, nothing is created.
      const again = firedThread(2, "nightly", FIRST);
      expect(await refs.fireSchedule(fireOf({ thread: again }))).toBe(false);
      expect(await refs.getThread(again.id)).toBeNull();
      // A fire that starts nothing (an overlap skipped) moves the time and keeps the last thread.
      const skip = fireOf({ expectedNextFireAt: SECOND, nextFireAt: THIRD, fireTime: SECOND, thread: null });
      expect(await refs.fireSchedule(skip)).toBe(true);
      const skipped = await refs.getSchedule("nightly");
      expect([skipped?.nextFireAt, skipped?.lastFireAt, skipped?.lastThread]).toEqual([THIRD, FIRST, thread.id]);
      expect(await refs.fireSchedule(fireOf({ name: "missing", thread: null }))).toBe(false);
    });

    it("lists the threads a schedule started", async () => {
      const { refs } = current().store;
      await refs.createSchedule(sampleSchedule());
      await refs.createSchedule(sampleSchedule({ name: "other" }));
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(9) }));
      await refs.fireSchedule(fireOf({ thread: firedThread(1, "nightly", FIRST) }));
      await refs.fireSchedule(fireOf({ name: "other", thread: firedThread(2, "other", FIRST) }));
      const second = { expectedNextFireAt: SECOND, nextFireAt: THIRD, fireTime: SECOND };
      await refs.fireSchedule(fireOf({ ...second, thread: firedThread(3, "nightly", SECOND) }));
      const listed = await refs.listThreads({ scheduledBy: "nightly" });
      expect(listed.total).toBe(2);
      expect(listed.threads.map((thread) => [thread.id, thread.scheduledBy?.fireTime])).toEqual([
        [sampleThreadId(3), SECOND],
        [sampleThreadId(1), FIRST],
      ]);
      expect((await refs.listThreads({ scheduledBy: "none" })).total).toBe(0);
      expect((await refs.getThread(sampleThreadId(9)))?.scheduledBy).toBeUndefined();
    });

    it("rolls a fire back whole when its thread's id exists, and refuses a thread that does not name the fire", async () => {
      const { refs } = current().store;
      await refs.createSchedule(sampleSchedule());
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(1) }));
      await expect(refs.fireSchedule(fireOf({ thread: firedThread(1, "nightly", FIRST) }))).rejects.toThrow(
        ThreadExistsError,
      );
      await expect(refs.fireSchedule(fireOf({ thread: firedThread(2, "other", FIRST) }))).rejects.toThrow(
        InvalidRecordError,
      );
      expect(await refs.getSchedule("nightly")).toEqual(sampleSchedule());
    });

    it("holds back a buffered fire and starts it once, comparing buffered too", async () => {
      const { refs } = current().store;
      await refs.createSchedule(sampleSchedule({ overlap: "buffer-one" }));
      expect(await refs.fireSchedule(fireOf({ buffered: FIRST, thread: null }))).toBe(true);
      expect((await refs.getSchedule("nightly"))?.buffered).toBe(FIRST);
      const start = fireOf({
        expectedNextFireAt: SECOND,
        expectedBuffered: FIRST,
        nextFireAt: SECOND,
        buffered: null,
        thread: firedThread(1, "nightly", FIRST),
      });
      expect(await refs.fireSchedule(start)).toBe(true);
      expect(await refs.fireSchedule({ ...start, thread: firedThread(2, "nightly", FIRST) })).toBe(false);
      const started = await refs.getSchedule("nightly");
      expect([started?.buffered, started?.nextFireAt, started?.lastThread]).toEqual([null, SECOND, sampleThreadId(1)]);
    });

    it("of many fires of one time at once, on this store and another on the same data, one wins", async () => {
      const fixture = current();
      const { refs } = fixture.store;
      await refs.createSchedule(sampleSchedule());
      const other = fixture.openAgain === undefined ? null : await fixture.openAgain();
      try {
        const stores = [refs, other?.refs ?? refs];
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, index) =>
            (stores[index % 2] ?? refs).fireSchedule(fireOf({ thread: firedThread(index + 1, "nightly", FIRST) })),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const { threads } = await refs.listThreads({ scheduledBy: "nightly" });
        expect(threads.map((thread) => thread.id)).toEqual([sampleThreadId(results.indexOf(true) + 1)]);
        expect((await refs.getSchedule("nightly"))?.lastThread).toBe(sampleThreadId(results.indexOf(true) + 1));
      } finally {
        await other?.close();
      }
    });
  });
}
