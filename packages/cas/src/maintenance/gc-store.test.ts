import { describe, expect, it } from "bun:test";
import { copyFileSync, existsSync, readdirSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Address, EvalReportNode } from "@uwf/protocol";
import { hashNode } from "../encoding/hash-node.ts";
import { GcRefusedError } from "../errors/gc-refused-error.ts";
import { openFileStore } from "../file/open-file-store.ts";
import { createMemoryRefStore } from "../memory/create-memory-ref-store.ts";
import { createMemoryStore } from "../memory/create-memory-store.ts";
import type { Store } from "../store.ts";
import { deadPid } from "../testing/dead-pid.ts";
import { openTestStore } from "../testing/open-test-store.ts";
import { sampleThreadId, sampleThreadRecord } from "../testing/sample-nodes.ts";
import { createTemporaryDirectory } from "../testing/temporary-directory.ts";
import { writeSampleThread } from "../testing/write-sample-thread.ts";
import { gcStore } from "./gc-store.ts";
import { verifyStore } from "./verify-store.ts";

const HOUR = 60 * 60 * 1000;

/** The name gc's report gives an object's set-aside file. */
const leftoverName = (address: string) => `${address.slice(0, 2)}/.gc-${address.slice(2)}`;

/** The pid of a process that has exited. */
const backends = ["memory", "file"] as const;

for (const name of backends) {
  const open = () => openTestStore(name);
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

    it("keeps the workflow a fork onto another version runs under once the registry has moved on", async () => {
      const { store, cleanup } = await open();
      const original = await writeSampleThread(store, sampleThreadId(1), 2);
      const version = (description: string) =>
        store.objects.put({ type: "workflow/1", name: "moved", description, roles: {}, conditions: {}, graph: {} });
      const second = await version("version 2");
      const forkPoint = original.steps[0]?.address as Address;
      await store.refs.createThread(
        sampleThreadRecord({
          id: sampleThreadId(2),
          start: original.record.start,
          head: forkPoint,
          workflowAddress: second,
          stepCount: 1,
          forkedFrom: {
            thread: original.record.id,
            step: 1,
            address: forkPoint,
            replaced: false,
            workflow: original.record.workflowAddress,
          },
        }),
      );
      // The name points at a third version now: only the fork's record names the second.
      await store.refs.setWorkflow({
        name: "moved",
        address: await version("version 3"),
        updatedAt: "2026-01-01T00:00:00.000Z",
      });
      const report = await gcStore(store, { now: new Date(Date.now() + 2 * HOUR), graceMs: HOUR });
      expect(report.deleted).toEqual([]);
      expect(await store.objects.has(second)).toBe(true);
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

    it("spares what a step holding a lease wrote, however small the grace, until the lease is gone", async () => {
      const { store, cleanup } = await open();
      const thread = await writeSampleThread(store, sampleThreadId(1), 1);
      const now = new Date();
      const lease = { ttlMs: 60_000, pid: process.pid, host: "here", now };
      const held = await store.refs.acquireLease(thread.record.id, lease);
      if (!held.acquired) throw new Error("expected the lease");
      // The nodes of the step in flight: written, the head not moved yet.
      const written = await store.objects.putMany([{ type: "text/1", text: "in flight" }, { in: "flight" }]);
      const later = new Date(now.getTime() + 2 * HOUR);
      // Expired by then, but held by a live process on this host: it may still commit.
      expect(await gcStore(store, { now: later, graceMs: 0, host: "here" })).toMatchObject({ deleted: [], young: 2 });
      // Judged from elsewhere, an expired lease spares nothing.
      expect(
        (await gcStore(store, { now: later, graceMs: 0, host: "elsewhere", dryRun: true })).deleted.sort(),
      ).toEqual([...written].sort());
      // Nor does the lease of a process of this host that has died.
      await store.refs.releaseLease(held.lease);
      await store.refs.acquireLease(thread.record.id, { ...lease, pid: deadPid() });
      const report = await gcStore(store, { now: later, graceMs: 0, host: "here" });
      expect(report.deleted.sort()).toEqual([...written].sort());
      expect(report.cutoff).toBe(later.toISOString());
      await cleanup();
    });

    it("forgets the lease rows crashed steps left, once no step may commit under them and their head is collected", async () => {
      const { store, cleanup } = await open();
      const live = await writeSampleThread(store, sampleThreadId(1), 1);
      const dead = await writeSampleThread(store, sampleThreadId(2), 1);
      const remote = await writeSampleThread(store, sampleThreadId(3), 1);
      const crashed = await writeSampleThread(store, sampleThreadId(4), 1);
      const now = new Date();
      const lease = (pid: number, host = "here") => ({ ttlMs: 60_000, pid, host, now });
      const liveLease = await store.refs.acquireLease(live.record.id, lease(process.pid));
      if (!liveLease.acquired) throw new Error("expected the lease");
      await store.refs.acquireLease(dead.record.id, lease(deadPid()));
      await store.refs.acquireLease(remote.record.id, lease(4242, "elsewhere"));
      // A step that recorded the head it meant to write, wrote it, and died: released unsettled (pid 0).
      const held = await store.refs.acquireLease(crashed.record.id, lease(process.pid));
      if (!held.acquired) throw new Error("expected the lease");
      const intended = await store.objects.put({ type: "text/1", text: "a crashed step's node" });
      await store.refs.recordLeaseHead(held.lease, intended as Address);
      await store.refs.releaseLease(held.lease);
      const threads = async () => (await store.refs.listLeases()).map((row) => row.threadId);

      // While the remote lease lives, and the crashed step's node is young, only the dead holder's row goes;
      // a live holder of this host keeps its row, however old.
      const first = await gcStore(store, { now, host: "here" });
      expect(first.forgottenLeases).toEqual([dead.record.id]);
      expect(await threads()).toEqual([live.record.id, remote.record.id, crashed.record.id]);
      expect(
        (await gcStore(store, { now: new Date(now.getTime() + 2 * HOUR), host: "here", dryRun: true })).forgottenLeases,
      ).toEqual([remote.record.id]);
      await store.refs.releaseLease(liveLease.lease);
      // Past the remote lease's lifetime and the grace: its row goes, and the crashed step's once its node is collected.
      const later = new Date(now.getTime() + 2 * HOUR);
      const second = await gcStore(store, { now: later, host: "here" });
      expect(second.deleted).toContain(intended);
      expect(second.forgottenLeases).toEqual([remote.record.id, crashed.record.id]);
      expect(await threads()).toEqual([]);
      await cleanup();
    });

    it("refuses to delete thread nodes while the ref store records no thread, deleting nothing", async () => {
      const { store, cleanup } = await open();
      const thread = await writeSampleThread(store, sampleThreadId(1), 2);
      const stray = await store.objects.put({ stray: true });
      const lost: Store = { ...store, refs: createMemoryRefStore() };
      const later = new Date(Date.now() + 2 * HOUR);
      for (const dryRun of [true, false]) {
        const refused = gcStore(lost, { now: later, dryRun });
        await expect(refused).rejects.toThrow(GcRefusedError);
        await expect(refused).rejects.toThrow("1 thread-start and 2 thread-step node(s) would be deleted");
      }
      for (const address of [...thread.reachable, stray]) expect(await store.objects.has(address)).toBe(true);
      // With threads recorded, a start node that none of them reaches is a lost thread too.
      await lost.refs.createThread(sampleThreadRecord({ id: sampleThreadId(7), head: stray, start: stray }));
      await expect(gcStore(lost, { now: later })).rejects.toThrow(
        "1 thread start node(s) that no thread record reaches would be deleted",
      );
      for (const address of thread.reachable) expect(await store.objects.has(address)).toBe(true);
      // Without thread nodes to lose, an empty ref store is just an empty ref store.
      const empty = createMemoryStore();
      const orphan = await empty.objects.put({ type: "text/1", text: "no thread ever" });
      expect((await gcStore(empty, { now: later })).deleted).toEqual([orphan]);
      await cleanup();
    });

    it("deletes a lost thread's nodes with force, and a deleted thread's without refusing", async () => {
      const { store, cleanup } = await open();
      const later = new Date(Date.now() + 2 * HOUR);
      const deleted = await writeSampleThread(store, sampleThreadId(1), 2);
      expect(await store.refs.deleteThread(deleted.record.id, deleted.record.head, new Date())).toBe(true);
      // Deleted on purpose: collected, though no thread is recorded any more.
      expect((await gcStore(store, { now: later })).deleted.sort()).toEqual([...deleted.reachable].sort());
      const lost = await writeSampleThread(store, sampleThreadId(2), 1);
      await store.refs.forgetChainIndex(lost.record.id);
      const emptied: Store = { ...store, refs: createMemoryRefStore() };
      await expect(gcStore(emptied, { now: later, dryRun: true })).rejects.toThrow(GcRefusedError);
      expect((await gcStore(emptied, { now: later, force: true })).deleted.sort()).toEqual([...lost.reachable].sort());
      await cleanup();
    });

    it("keeps an eval report's node while its entry names it, and collects it once the entry is deleted", async () => {
      const { store, cleanup } = await open();
      const later = new Date(Date.now() + 2 * HOUR);
      const thread = await writeSampleThread(store, sampleThreadId(1), 1);
      // Plain JSON stands in for the eval-report/1 node: what the entry keeps is the node it names.
      const node = await store.objects.put({ report: "smoke", heads: [thread.record.head] });
      const stray = await store.objects.put({ report: "never saved" });
      const entry = { id: sampleThreadId(7), address: node, name: "smoke", createdAt: new Date().toISOString() };
      await store.refs.saveEvalReport(entry);
      const kept = await gcStore(store, { now: later });
      expect(kept.deleted).toEqual([stray]);
      expect(kept.reachable).toBe(thread.reachable.size + 1);
      expect(await store.objects.has(node)).toBe(true);
      expect(await store.refs.deleteEvalReport(entry.id)).toBe(true);
      expect((await gcStore(store, { now: later })).deleted).toEqual([node]);
      for (const address of thread.reachable) expect(await store.objects.has(address)).toBe(true);
      await cleanup();
    });

    it("keeps the chain of a deleted thread whose head an eval report scored, until the report goes", async () => {
      const { store, cleanup } = await open();
      const later = new Date(Date.now() + 2 * HOUR);
      const thread = await writeSampleThread(store, sampleThreadId(1), 2);
      const text = await store.objects.put({ type: "text/1", text: "name: smoke\n" });
      const report: EvalReportNode = {
        type: "eval-report/1",
        name: "smoke",
        createdAt: new Date().toISOString(),
        source: { kind: "suite", file: "/work/smoke.yaml", text },
        assertions: [{ name: "ended", kind: "status", status: "ended" }],
        samples: [
          {
            thread: thread.record.id,
            head: thread.record.head,
            case: null,
            variant: null,
            repeat: null,
            workflow: thread.record.workflow,
            status: "active",
            outcome: null,
            path: ["writer", "writer"],
            steps: 2,
            tokens: 0,
            costUsd: 0,
            durationMs: 0,
            final: {},
            scores: [{ assertion: "ended", verdict: "failed", score: 0, reason: null, error: null, judge: null }],
            verdict: "failed",
            score: 0,
            error: null,
          },
        ],
        unstarted: [],
        gate: null,
        rescoredFrom: null,
      };
      const entry = {
        id: sampleThreadId(7),
        address: await store.objects.put(report),
        name: "smoke",
        createdAt: report.createdAt,
      };
      await store.refs.saveEvalReport(entry);
      expect(await store.refs.deleteThread(thread.record.id, thread.record.head, new Date())).toBe(true);
      // The report reads its samples' chains: they stay while it is named, though their thread went.
      expect((await gcStore(store, { now: later })).deleted).toEqual([]);
      for (const address of thread.reachable) expect(await store.objects.has(address)).toBe(true);
      expect(await store.refs.deleteEvalReport(entry.id)).toBe(true);
      const collected = await gcStore(store, { now: later });
      expect(collected.deleted.sort()).toEqual([...thread.reachable, entry.address, text].sort());
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
  it("resolves objects set aside by a killed gc once older than its grace: put back, removed or deleted", async () => {
    const home = createTemporaryDirectory();
    const store = await openFileStore(home.path);
    const thread = await writeSampleThread(store, sampleThreadId(1), 1);
    const orphan = await store.objects.put({ type: "text/1", text: "unreachable" });
    const young = await store.objects.put({ type: "text/1", text: "young, unreachable" });
    const objectsRoot = join(home.path, "objects");
    const file = (address: string) => join(objectsRoot, address.slice(0, 2), `${address.slice(2)}.json`);
    const setAside = (address: string) => join(objectsRoot, address.slice(0, 2), `.gc-${address.slice(2)}`);
    const old = new Date(Date.now() - 2 * HOUR);
    const { head, start } = thread.record;
    // The head set aside alone (the only copy), the start set aside beside its object, an orphan alone.
    for (const address of [head, orphan, young]) renameSync(file(address), setAside(address));
    copyFileSync(file(start), setAside(start));
    for (const address of [head, start, orphan]) utimesSync(setAside(address), old, old);
    utimesSync(file(start), old, old);

    const listed = await Array.fromAsync(store.objects.list());
    expect(listed.filter((address) => [head, orphan, young, start].includes(address)).sort()).toEqual(
      [head, orphan, young, start].sort(),
    );
    const dryRun = await gcStore(store, { now: new Date(), dryRun: true });
    expect(dryRun.deleted).toEqual([orphan]);
    expect(dryRun.deletedTemporaryFiles.sort()).toEqual([head, orphan, start].map(leftoverName).sort());
    expect(existsSync(setAside(orphan))).toBe(true);

    const report = await gcStore(store, { now: new Date() });
    expect(report.deleted).toEqual([orphan]);
    expect(report.deletedTemporaryFiles.sort()).toEqual([head, start].map(leftoverName).sort());
    expect(report.young).toBe(1);
    for (const address of [head, start]) {
      expect(existsSync(file(address))).toBe(true);
      expect(existsSync(setAside(address))).toBe(false);
    }
    expect(await store.objects.has(orphan)).toBe(false);
    expect(existsSync(setAside(young))).toBe(true);
    expect((await verifyStore(store)).problems).toEqual([]);
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
