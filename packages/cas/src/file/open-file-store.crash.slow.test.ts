import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import type { Address } from "@uwf/protocol";
import { gcStore } from "../maintenance/gc-store.ts";
import { verifyStore } from "../maintenance/verify-store.ts";
import { walkNodes } from "../objects/walk-nodes.ts";
import type { Store } from "../store.ts";
import { createSampleNodes, sampleThreadId, sampleThreadRecord } from "../testing/sample-nodes.ts";
import { createTemporaryDirectory } from "../testing/temporary-directory.ts";
import { openFileStore } from "./open-file-store.ts";

const KILLS = 60;
const FIXTURE = join(import.meta.dir, "..", "testing", "fixtures", "write-and-advance.ts");

/** Steps between the head and the start: what stepCount must say if no advance was half-applied. */
async function chainLength(store: Store, head: Address): Promise<number> {
  let length = 0;
  await walkNodes(store.objects, [head], {
    visit: (_address, node) => {
      if ((node as { type?: string }).type === "thread-step/1") length++;
    },
    refsOf: (node) => {
      const { prev } = node as { prev?: Address | null };
      return prev === undefined || prev === null ? [] : [prev];
    },
  });
  return length;
}

describe("openFileStore after SIGKILL", () => {
  it("holds no partial or corrupt object and no dangling head after 60 writers are killed at random moments", async () => {
    const home = createTemporaryDirectory();
    const setup = await openFileStore(home.path);
    const samples = createSampleNodes();
    await setup.objects.putMany(Object.values(samples));
    const start = await setup.objects.put(samples["thread-start/1"]);
    const threadId = sampleThreadId(1);
    await setup.refs.createThread(sampleThreadRecord({ id: threadId, start, head: start }));
    await setup.close();

    for (let kill = 0; kill < KILLS; kill++) {
      const durable = kill % 2 === 0 ? "1" : "0";
      const writer = Bun.spawn([process.execPath, FIXTURE, home.path, threadId, durable], {
        stdout: "pipe",
        stderr: "pipe",
      });
      // Wait until it is writing (every tenth writer: until it has advanced the head once, so the thread
      // has steps however slow the machine), then let it run 5-60 ms before the kill.
      const output = writer.stdout.getReader();
      const awaited = kill % 10 === 0 ? "advanced" : "ready";
      for (let seen = ""; !seen.includes(awaited); ) {
        const chunk = await output.read();
        if (chunk.done) break;
        seen += new TextDecoder().decode(chunk.value);
      }
      await Bun.sleep(5 + Math.random() * 55);
      writer.kill("SIGKILL");
      expect(await writer.exited).not.toBe(0);
      expect(writer.signalCode).toBe("SIGKILL");
    }

    const store = await openFileStore(home.path);
    const report = await verifyStore(store);
    expect(report.problems).toEqual([]);
    const record = await store.refs.getThread(threadId);
    if (record === null) throw new Error("the thread record is gone");
    expect(await store.objects.has(record.head)).toBe(true);
    expect(record.stepCount).toBeGreaterThan(0);
    expect(await chainLength(store, record.head)).toBe(record.stepCount);

    // Collecting the killed steps' orphans keeps the thread whole.
    const collected = await gcStore(store, { now: new Date(Date.now() + 2 * 60 * 60 * 1000) });
    expect(collected.deleted.length + collected.kept).toBe(report.checked);
    const after = await verifyStore(store);
    expect(after.problems).toEqual([]);
    expect(after.leftovers).toEqual([]);
    expect(await chainLength(store, record.head)).toBe(record.stepCount);
    await store.close();
    home.remove();
    // 60 Bun processes one after the other: a minute and more on a machine that runs other tests beside.
  }, 180_000);
});
