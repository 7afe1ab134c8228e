import { describe, expect, it } from "bun:test";
import type { Address } from "@uwf/protocol";
import { LEASE_CLOCK_MARGIN_MS } from "../lease/find-lease-cutoff.ts";
import { walkNodes } from "../objects/walk-nodes.ts";
import type { Store } from "../store.ts";
import { openTestStore } from "../testing/open-test-store.ts";
import { putSampleStep } from "../testing/put-sample-step.ts";
import { createSampleNodes, sampleThreadId, sampleThreadRecord } from "../testing/sample-nodes.ts";
import { gcStore } from "./gc-store.ts";
import { verifyStore } from "./verify-store.ts";

const THREADS = 8;
const STEPS = 12;
const HOST = "race-host";

const sleep = (maximumMs: number) => Bun.sleep(Math.random() * maximumMs);

/**
 * One step as stepThread takes it: the lease, the record, an agent that takes 0-40 ms, the step's
 * nodes written, a moment (0-10 ms) before the head moves, then the compare-and-swap.
 */
async function takeStep(store: Store, threadId: string, number: number): Promise<void> {
  const acquired = await store.refs.acquireLease(threadId, {
    ttlMs: 60_000,
    pid: process.pid,
    host: HOST,
    now: new Date(),
  });
  if (!acquired.acquired) throw new Error(`thread ${threadId} is busy`);
  try {
    const record = await store.refs.getThread(threadId);
    if (record === null) throw new Error(`no thread ${threadId}`);
    await sleep(40);
    const startedAt = new Date().toISOString();
    const { head: step } = await putSampleStep(store.objects, {
      start: record.start,
      head: record.head,
      prompt: `prompt ${number} of ${threadId}`,
      output: { number },
      body: `body ${number} of ${threadId}`,
      step: { startedAt, completedAt: new Date().toISOString() },
    });
    await sleep(10);
    const moved = await store.refs.updateThread(threadId, record.head, {
      head: step,
      stepCount: record.stepCount + 1,
      updatedAt: new Date().toISOString(),
    });
    if (!moved) throw new Error(`thread ${threadId} moved under its lease`);
  } finally {
    await store.refs.releaseLease(acquired.lease);
  }
}

/** The steps from the head back to the start, failing on any node that is not there. */
async function chainLength(store: Store, head: Address): Promise<number> {
  let length = 0;
  await walkNodes(store.objects, [head], {
    visit: (_address, node) => {
      if ((node as { type?: string }).type === "thread-step/1") length++;
    },
  });
  return length;
}

const backends = ["memory", "file"] as const;

for (const name of backends) {
  const open = () => openTestStore(name);
  describe(`gcStore on the ${name} store, racing steps`, () => {
    it(`leaves every head and chain intact with a grace of 0 in a loop against ${THREADS} stepping threads`, async () => {
      const { store, cleanup } = await open();
      const samples = createSampleNodes();
      // Leftovers of failed steps (all but the start node), for gc to delete while the steps run.
      const { "thread-start/1": _start, ...leftovers } = samples;
      await store.objects.putMany(Object.values(leftovers));
      // Older than any step's lease can spare (its clock margin), so only they are gc's to delete.
      await Bun.sleep(LEASE_CLOCK_MARGIN_MS + 100);
      const ids = Array.from({ length: THREADS }, (_, index) => sampleThreadId(index + 1));
      for (const id of ids) {
        const start = await store.objects.put({ ...(samples["thread-start/1"] as object), prompt: `task of ${id}` });
        await store.refs.createThread(sampleThreadRecord({ id, start, head: start }));
      }
      let stepping = true;
      let runs = 0;
      let deleted = 0;
      const collector = (async () => {
        while (stepping) {
          deleted += (await gcStore(store, { now: new Date(), graceMs: 0, host: HOST })).deleted.length;
          runs++;
          await sleep(5);
        }
      })();
      await Promise.all(
        ids.map(async (id) => {
          for (let number = 1; number <= STEPS; number++) await takeStep(store, id, number);
        }),
      );
      stepping = false;
      await collector;

      expect(runs).toBeGreaterThan(THREADS);
      for (const id of ids) {
        const record = await store.refs.getThread(id);
        expect(record?.stepCount).toBe(STEPS);
        expect(await chainLength(store, record?.head as Address)).toBe(STEPS);
      }
      const report = await verifyStore(store);
      expect(report.problems).toEqual([]);
      // The leftovers no thread links were old enough to go.
      expect(deleted).toBeGreaterThan(0);
      await cleanup();
    }, 60_000);
  });
}
