import { describe, expect, it } from "bun:test";
import { createMemoryStore, type Store } from "@uwf/cas";
import { sampleThreadRecord } from "@uwf/cas/test";
import type { ThreadRecord } from "@uwf/protocol";
import { queueThread } from "./queue-thread.ts";

const now = () => new Date("2026-01-02T03:04:05.000Z");
const HOST = "test-host";

async function storeWith(record: Partial<ThreadRecord>): Promise<{ store: Store; id: string }> {
  const store = createMemoryStore();
  const thread = sampleThreadRecord(record);
  await store.refs.createThread(thread);
  return { store, id: thread.id };
}

describe("queueThread", () => {
  it("queues an active thread by a conditional update, and changes nothing the second time", async () => {
    const { store, id } = await storeWith({});
    const first = await queueThread({ store, threadId: id, host: HOST, now });
    expect(first).toMatchObject({ changed: true, record: { status: "active", queued: true } });
    expect(await store.refs.getThread(id)).toMatchObject({ queued: true, updatedAt: now().toISOString() });
    const second = await queueThread({ store, threadId: id, host: HOST, now });
    expect(second.changed).toBe(false);
  });

  it("reads the record again when a step moved the head between its read and its update", async () => {
    const { store, id } = await storeWith({});
    const original = await store.refs.getThread(id);
    let raced = false;
    const refs = {
      ...store.refs,
      // Another process records a step right after this one read the record.
      async getThread(threadId: string) {
        const record = await store.refs.getThread(threadId);
        if (!raced && record !== null) {
          raced = true;
          expect(await store.refs.updateThread(threadId, record.head, { head: "7QF3M0X2KD1BH", stepCount: 1 })).toBe(
            true,
          );
        }
        return record;
      },
    };
    const outcome = await queueThread({ store: { ...store, refs }, threadId: id, host: HOST, now });
    expect(outcome.changed).toBe(true);
    const stored = await store.refs.getThread(id);
    // The step is kept, and the thread queued.
    expect(stored).toMatchObject({ head: "7QF3M0X2KD1BH", stepCount: 1, queued: true });
    expect(stored?.head).not.toBe(original?.head);
  });

  it("refuses an ended, suspended or cancelled thread as a step refuses it, and leaves it", async () => {
    for (const [status, code] of [
      ["ended", "thread-ended"],
      ["suspended", "thread-suspended"],
      ["cancelled", "thread-cancelled"],
    ] as const) {
      const { store, id } = await storeWith({ status });
      await expect(queueThread({ store, threadId: id, host: HOST, now })).rejects.toMatchObject({ code });
      expect((await store.refs.getThread(id))?.queued).toBeUndefined();
    }
  });

  it("makes a failed thread active again, its failure cleared, and queues it", async () => {
    const { store, id } = await storeWith({
      status: "failed",
      failure: { code: "agent-failed", message: "down", attempts: 3, failedAt: now().toISOString() },
    });
    const outcome = await queueThread({ store, threadId: id, host: HOST, now });
    expect(outcome).toMatchObject({ changed: true, record: { status: "active", queued: true } });
    const stored = await store.refs.getThread(id);
    expect(stored).toMatchObject({ status: "active", queued: true });
    expect(stored?.failure).toBeUndefined();
  });

  it("says a thread that is not there is not found", async () => {
    await expect(
      queueThread({ store: createMemoryStore(), threadId: "01NOSUCH", host: HOST, now }),
    ).rejects.toMatchObject({
      code: "thread-not-found",
    });
  });
});
