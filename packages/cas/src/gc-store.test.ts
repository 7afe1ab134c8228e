import { describe, expect, it } from "bun:test";
import { readdirSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Address } from "@uwf/protocol";
import { createTemporaryDirectory } from "../test/temporary-directory.ts";
import { writeSampleThread } from "../test/write-sample-thread.ts";
import { createMemoryStore } from "./create-memory-store.ts";
import { gcStore } from "./gc-store.ts";
import { hashNode } from "./hash-node.ts";
import { openFileStore } from "./open-file-store.ts";
import { sampleThreadId } from "./sample-nodes.ts";
import type { ChainIndexStep, Store } from "./store.ts";

const HOUR = 60 * 60 * 1000;

const backends: [string, () => Promise<{ store: Store; cleanup: () => Promise<void> }>][] = [
  ["memory", async () => ({ store: createMemoryStore(), cleanup: async () => {} })],
  [
    "file",
    async () => {
      const home = createTemporaryDirectory();
      const store = await openFileStore(home.path);
      const cleanup = async () => {
        await store.close();
        home.remove();
      };
      return { store, cleanup };
    },
  ],
];

for (const [name, open] of backends) {
  describe(`gcStore on the ${name} store`, () => {
    it("deletes unreachable objects older than the grace period and nothing reachable", async () => {
      const { store, cleanup } = await open();
      const first = await writeSampleThread(store, sampleThreadId(1), 3);
      const second = await writeSampleThread(store, sampleThreadId(2), 2);
      const workflow = await store.objects.put({
        type: "workflow/1",
        name: "registered",
        roles: {},
        conditions: {},
        graph: {},
      });
      await store.refs.setWorkflow({ name: "registered", address: workflow, updatedAt: "2026-01-01T00:00:00.000Z" });
      // A step that failed before moving the head: its nodes are orphans.
      const orphans = await store.objects.putMany([
        { type: "text/1", text: "raw reply of a failed step" },
        { stray: true },
      ]);
      const reachable = new Set([...first.reachable, ...second.reachable, workflow]);

      const later = new Date(Date.now() + 2 * HOUR);
      const spared = await gcStore(store, { now: later, graceMs: 3 * HOUR });
      expect(spared).toMatchObject({ reachable: reachable.size, young: 2, kept: reachable.size + 2, deleted: [] });

      const dryRun = await gcStore(store, { now: later, dryRun: true });
      expect(dryRun.deleted.sort()).toEqual([...orphans].sort());
      expect(await store.objects.has(orphans[0] as string)).toBe(true);

      const report = await gcStore(store, { now: later });
      expect(report.deleted.sort()).toEqual([...orphans].sort());
      expect(report.kept).toBe(reachable.size);
      for (const address of orphans) expect(await store.objects.has(address)).toBe(false);
      for (const address of reachable) expect(await store.objects.has(address)).toBe(true);
      await cleanup();
    });

    it("forgets the cached chain links of the step nodes it deletes, and only those", async () => {
      const { store, cleanup } = await open();
      const thread = await writeSampleThread(store, sampleThreadId(1), 1);
      const kept = thread.record.head;
      // A step whose head never moved (a lost race): unreachable, but its link was cached.
      const lost = hashNode({ type: "thread-step/1", start: thread.record.start, prev: kept, lost: true });
      await store.objects.put(JSON.parse(new TextDecoder().decode(lost.bytes)));
      const linkOf = async (address: Address) => ({
        address,
        prev: thread.record.start,
        bytes: await store.objects.getBytes(address),
      });
      await store.refs.rememberChainLinks([await linkOf(kept), { ...lost, prev: kept }]);

      const report = await gcStore(store, { now: new Date(Date.now() + 2 * HOUR) });
      expect(report.deleted).toEqual([lost.address]);
      expect(await store.refs.recallChain(lost.address)).toEqual([]);
      expect((await store.refs.recallChain(kept)).map((link) => link.address)).toEqual([kept]);
      await cleanup();
    });

    it("keeps an old unreachable node that a step puts again while gc decides", async () => {
      const { store, cleanup } = await open();
      const node = { type: "text/1", text: "prompt of a failed run, about to be reused" };
      const address = await store.objects.put(node);
      await Bun.sleep(20);
      // The put lands after gc has read the node's old write time, before it deletes it.
      const racing: Store = {
        ...store,
        objects: {
          ...store.objects,
          writtenAt: async (input) => {
            const writtenAt = await store.objects.writtenAt(input);
            await store.objects.put(node);
            return writtenAt;
          },
        },
      };
      const report = await gcStore(racing, { now: new Date(), graceMs: 10 });
      expect(report).toMatchObject({ deleted: [], young: 1, kept: 1 });
      expect(await store.objects.get(address)).toEqual(node);
      await cleanup();
    });

    it("keeps a node that is re-put within the grace period even when nothing reaches it yet", async () => {
      const { store, cleanup } = await open();
      const address = await store.objects.put({ type: "text/1", text: "prompt about to be linked" });
      expect((await gcStore(store, { now: new Date(Date.now() + 2 * HOUR) })).deleted).toEqual([address]);
      await store.objects.put({ type: "text/1", text: "prompt about to be linked" });
      expect((await gcStore(store, { now: new Date(Date.now() + HOUR / 2) })).deleted).toEqual([]);
      await cleanup();
    });
  });
}

describe("gcStore and chain indexes", () => {
  it("drops the indexes that disagree with their chains, and only in a real run", async () => {
    const store = createMemoryStore();
    const damaged = await writeSampleThread(store, sampleThreadId(1), 2);
    const sound = await writeSampleThread(store, sampleThreadId(2), 2);
    const [first, second] = damaged.steps as [ChainIndexStep, ChainIndexStep];
    await store.refs.rememberChainIndex(damaged.record.id, { start: damaged.record.start, steps: [second, first] });
    await store.refs.rememberChainIndex(sound.record.id, { start: sound.record.start, steps: sound.steps });
    const now = new Date();

    const dryRun = await gcStore(store, { now, dryRun: true });
    expect(dryRun.droppedChainIndexes).toEqual([damaged.record.id]);
    expect(await store.refs.recallChainIndex(damaged.record.id)).not.toBeNull();

    const run = await gcStore(store, { now });
    expect(run.droppedChainIndexes).toEqual([damaged.record.id]);
    expect(await store.refs.recallChainIndex(damaged.record.id)).toBeNull();
    expect(await store.refs.recallChainIndex(sound.record.id)).toEqual({
      start: sound.record.start,
      steps: sound.steps,
    });
    expect((await gcStore(store, { now })).droppedChainIndexes).toEqual([]);
  });
});

describe("gcStore on the file store", () => {
  it("removes leftover temporary files older than the grace period only", async () => {
    const home = createTemporaryDirectory();
    const store = await openFileStore(home.path);
    const address = await store.objects.put({ kept: true });
    const shard = join(home.path, "objects", address.slice(0, 2));
    writeFileSync(join(shard, ".tmp-1-1-old"), "{");
    writeFileSync(join(shard, ".tmp-1-2-new"), "{");
    const old = new Date(Date.now() - 2 * HOUR);
    utimesSync(join(shard, ".tmp-1-1-old"), old, old);
    const report = await gcStore(store, { now: new Date() });
    expect(report.deletedTemporaryFiles).toEqual([`${address.slice(0, 2)}/.tmp-1-1-old`]);
    expect(report.young).toBe(1);
    await store.close();
    home.remove();
  });
  it("leaves a node readable when killed while deciding whether to delete it, and a put writes it back", async () => {
    const home = createTemporaryDirectory();
    const store = await openFileStore(home.path);
    const node = { type: "text/1", text: "set aside" };
    const address = await store.objects.put(node);
    const shard = join(home.path, "objects", address.slice(0, 2));
    // Where deleteIfWrittenBefore moves it before it decides; a SIGKILL there leaves it so.
    renameSync(join(shard, `${address.slice(2)}.json`), join(shard, `.gc-${address.slice(2)}`));
    expect(await store.objects.get(address)).toEqual(node);
    expect(await store.objects.has(address)).toBe(true);
    expect(await gcStore(store, { now: new Date() })).toMatchObject({ deleted: [], deletedTemporaryFiles: [] });
    expect(await store.objects.get(address)).toEqual(node);
    await store.objects.put(node);
    expect(readdirSync(shard).sort()).toEqual([`${address.slice(2)}.json`, `.gc-${address.slice(2)}`].sort());
    await store.objects.delete(address);
    expect(readdirSync(shard)).toEqual([]);
    await store.close();
    home.remove();
  });
});
