import { describe, expect, it } from "bun:test";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { ChangeFeed } from "../refs/change-feed.ts";
import type { RefStore } from "../refs/ref-store.ts";
import type { CurrentFixture } from "./conformance-suite.ts";
import { sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";
import { waitFor } from "./wait-for.ts";

const HEAD_A = "2W53JPNXF556H";
const HEAD_B = "B1XRH20GCX3FB";
const lease = { ttlMs: 30_000, pid: 100, host: "box", now: new Date(Date.UTC(2026, 0, 1)) };

/** Counts the change signals `refs` gives, from when it resolved until `stop`. */
async function countChanges(refs: ChangeFeed): Promise<{ count: () => number; stop: () => Promise<void> }> {
  let count = 0;
  const stop = await refs.watchChanges(
    () => {
      count++;
    },
    { pollMs: 20 },
  );
  return { count: () => count, stop };
}

/** Waits for a signal after `write`, returning how many there were by then. */
async function expectSignal(changes: { count: () => number }, write: () => Promise<unknown>, what: string) {
  const before = changes.count();
  await write();
  await waitFor(() => changes.count() > before, { what: `a change signal after ${what}`, timeoutMs: 5_000 });
}

/** What `uwf ui`'s live pages stand on: the change signal, and reading only what changed. */
export function describeChangeFeedConformance(current: CurrentFixture): void {
  describe("change feed", () => {
    it("signals this store's writes to threads, leases and eval reports, and nothing once stopped", async () => {
      const { refs } = current().store;
      const changes = await countChanges(refs);
      const record = sampleThreadRecord();
      await expectSignal(changes, () => refs.createThread(record), "createThread");
      await expectSignal(changes, () => refs.updateThread(record.id, record.head, { head: HEAD_A }), "updateThread");
      const taken = await refs.acquireLease(record.id, lease);
      if (!taken.acquired) throw new Error("expected the lease");
      await expectSignal(changes, () => refs.releaseLease(taken.lease), "releaseLease");
      await expectSignal(
        changes,
        () =>
          refs.saveEvalReport({
            id: sampleThreadId(1, "01JR"),
            address: HEAD_A,
            name: "smoke",
            createdAt: "2026-03-04T05:06:07.000Z",
          }),
        "saveEvalReport",
      );
      await expectSignal(changes, () => refs.deleteThread(record.id, HEAD_A, new Date()), "deleteThread");
      await changes.stop();
      const stopped = changes.count();
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(2) }));
      await Bun.sleep(150);
      expect(changes.count()).toBe(stopped);
    });

    it("signals what another store on the same data writes, as another process would, and stays quiet while nothing does", async () => {
      const fixture = current();
      if (fixture.openAgain === undefined) return; // memory: no other store sees its data
      const other = await fixture.openAgain();
      try {
        const changes = await countChanges(fixture.store.refs);
        await Bun.sleep(100);
        const quiet = changes.count();
        await fixture.store.refs.listThreads({});
        await other.refs.listThreads({});
        await Bun.sleep(200);
        expect(changes.count()).toBe(quiet);
        const record = sampleThreadRecord();
        await expectSignal(changes, () => other.refs.createThread(record), "another store's createThread");
        await expectSignal(
          changes,
          () => other.refs.updateThread(record.id, record.head, { head: HEAD_B, stepCount: 1 }),
          "another store's updateThread",
        );
        await expectSignal(changes, () => other.refs.acquireLease(record.id, lease), "another store's acquireLease");
        await changes.stop();
      } finally {
        await other.close();
      }
    });

    it("lists the threads updated since a time, with the other filters, and refuses a time that is not one", async () => {
      const { refs } = current().store;
      const at = (minute: number) => `2026-01-02T03:${String(minute).padStart(2, "0")}:00.000Z`;
      for (const [index, minute] of [10, 20, 30, 40].entries()) {
        await refs.createThread(
          sampleThreadRecord({
            id: sampleThreadId(index + 1),
            updatedAt: at(minute),
            status: index === 3 ? "ended" : "active",
          }),
        );
      }
      const since = async (query: Parameters<RefStore["listThreads"]>[0]) =>
        (await refs.listThreads(query)).threads.map((thread) => thread.id);
      expect(await since({ updatedSince: at(20) })).toEqual([4, 3, 2].map((n) => sampleThreadId(n)));
      expect(await since({ updatedSince: at(41) })).toEqual([]);
      expect(await since({ updatedSince: at(20), status: "active" })).toEqual([3, 2].map((n) => sampleThreadId(n)));
      expect((await refs.listThreads({ updatedSince: at(20), limit: 1 })).total).toBe(3);
      // An update moves a thread into the window.
      expect(await refs.updateThread(sampleThreadId(1), sampleThreadRecord().head, { updatedAt: at(50) })).toBe(true);
      expect(await since({ updatedSince: at(45) })).toEqual([sampleThreadId(1)]);
      await expect(refs.listThreads({ updatedSince: "yesterday" })).rejects.toThrow(InvalidRecordError);
    });

    it("lists the threads deleted since a time", async () => {
      const { refs } = current().store;
      for (const n of [1, 2]) await refs.createThread(sampleThreadRecord({ id: sampleThreadId(n) }));
      const head = sampleThreadRecord().head;
      await refs.deleteThread(sampleThreadId(1), head, new Date("2026-01-02T03:00:00.000Z"));
      await refs.deleteThread(sampleThreadId(2), head, new Date("2026-01-02T04:00:00.000Z"));
      expect((await refs.listDeletedThreads({ deletedSince: "2026-01-02T03:30:00.000Z" })).map((e) => e.id)).toEqual([
        sampleThreadId(2),
      ]);
      expect(await refs.listDeletedThreads({ deletedSince: "2026-01-02T03:00:00.000Z" })).toHaveLength(2);
      expect(await refs.listDeletedThreads()).toHaveLength(2);
      await expect(refs.listDeletedThreads({ deletedSince: "soon" })).rejects.toThrow(InvalidRecordError);
    });
  });
}
