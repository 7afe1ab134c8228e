import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ThreadRecord } from "@uwf/protocol";
import { hashNode } from "../encoding/hash-node.ts";
import { RefStoreDamagedError } from "../errors/ref-store-damaged-error.ts";
import { rollBackRefDatabase as rollBack } from "../testing/roll-back-ref-database.ts";
import { sampleBranch } from "../testing/sample-branch.ts";
import { sampleThreadId, sampleThreadRecord } from "../testing/sample-nodes.ts";
import { createTemporaryDirectory } from "../testing/temporary-directory.ts";
import { createSqliteRefStore } from "./create-sqlite-ref-store.ts";
import { REF_SCHEMA_VERSION } from "./open-ref-database.ts";
import { findRefDatabaseDamage, setAsideRefDatabase } from "./ref-database-damage.ts";

describe("createSqliteRefStore", () => {
  let home: ReturnType<typeof createTemporaryDirectory>;
  let path: string;
  beforeEach(() => {
    home = createTemporaryDirectory();
    path = join(home.path, "refs.db");
  });
  afterEach(() => home.remove());

  it("creates the schema in WAL mode, stamped with its version", async () => {
    const refs = createSqliteRefStore(path);
    await refs.close();
    const database = new Database(path, { readonly: true });
    expect(database.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(database.query("PRAGMA user_version").get()).toEqual({ user_version: REF_SCHEMA_VERSION });
    const tables = database
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all();
    expect(tables.map((table) => table.name)).toEqual([
      "branch_links",
      "chain_index_details",
      "chain_indexes",
      "chain_links",
      "deleted_threads",
      "eval_reports",
      "leases",
      "schedules",
      "step_output",
      "thread_words",
      "thread_words_index",
      "thread_words_index_config",
      "thread_words_index_data",
      "thread_words_index_docsize",
      "thread_words_index_idx",
      "threads",
      "workflows",
    ]);
    database.close();
  });

  it("keeps records across reopening", async () => {
    const first = createSqliteRefStore(path);
    await first.createThread(sampleThreadRecord());
    await first.close();
    const second = createSqliteRefStore(path);
    expect(await second.getThread(sampleThreadRecord().id)).toEqual(sampleThreadRecord());
    await second.close();
  });

  it("migrates a version 1 database, keeping its records", async () => {
    const first = createSqliteRefStore(path);
    await first.createThread(sampleThreadRecord());
    await first.close();
    rollBack(path, 1);

    const refs = createSqliteRefStore(path);
    expect(await refs.getThread(sampleThreadRecord().id)).toEqual(sampleThreadRecord());
    const { address, bytes } = hashNode({ type: "thread-step/1" });
    await refs.rememberChainLinks([{ address, prev: "2W53JPNXF556H", bytes }]);
    expect(await refs.recallChain(address)).toHaveLength(1);
    await refs.rememberChainIndex("T", { start: "2W53JPNXF556H", steps: [{ address, role: "writer" }] });
    expect(await refs.recallChainIndex("T")).toEqual({ start: "2W53JPNXF556H", steps: [{ address, role: "writer" }] });
    await refs.close();
    const reopened = new Database(path, { readonly: true });
    expect(reopened.query("PRAGMA user_version").get()).toEqual({ user_version: REF_SCHEMA_VERSION });
    reopened.close();
  });

  it("migrates a version 4 database, whose leases then name no process start and no agent", async () => {
    const first = createSqliteRefStore(path);
    const now = new Date();
    const held = await first.acquireLease("T", { ttlMs: 60_000, pid: 100, host: "box", now, processStart: "7" });
    if (!held.acquired) throw new Error("expected the lease");
    await first.close();
    rollBack(path, 4);

    const refs = createSqliteRefStore(path);
    const old = { ...held.lease, processStart: null };
    expect(await refs.listLeases()).toEqual([old]);
    expect(await refs.recordLeaseAgent(old, { group: 4321, start: "8" })).toBe(true);
    expect(await refs.listLeases()).toEqual([{ ...old, agentGroup: 4321, agentStart: "8" }]);
    await refs.close();
  });

  it("migrates a version 6 database, whose forks then name their address only, and still lists them", async () => {
    const { original, fork } = await forkAtVersion(path, 6);

    const refs = createSqliteRefStore(path);
    const addressOnly = { ...fork, forkedFrom: { thread: null, step: null, address: "2W53JPNXF556H", replaced: null } };
    expect(await refs.getThread(fork.id)).toEqual(addressOnly);
    expect(await refs.listThreads({})).toEqual({ threads: [addressOnly, original], total: 2 });
    expect((await refs.listThreads({ start: "2W53JPNXF556H" })).total).toBe(2);
    expect((await refs.listThreads({ forksOf: { thread: original.id } })).total).toBe(0);
    const roots = new Set<string>();
    for await (const root of refs.listThreadRoots()) roots.add(root);
    expect([...roots].sort()).toEqual(["2SPNY716211N9", "2W53JPNXF556H", "B1XRH20GCX3FB"]);
    await refs.close();
    const reopened = new Database(path, { readonly: true });
    expect(reopened.query("PRAGMA user_version").get()).toEqual({ user_version: REF_SCHEMA_VERSION });
    reopened.close();
  });

  it("migrates a version 19 database, whose threads are then found by id and workflow, and indexes more after", async () => {
    const { original, fork } = await forkAtVersion(path, 19);

    const refs = createSqliteRefStore(path);
    const found = async (text: string) => (await refs.searchThreads({ text })).threads.map((thread) => thread.id);
    expect(await found(original.workflow)).toEqual([fork.id, original.id]);
    expect(await found(fork.id.toLowerCase())).toEqual([fork.id]);
    await refs.indexThreadText(original.id, ["a prompt about zebras"]);
    expect(await found("zebra")).toEqual([original.id]);
    await refs.close();
  });

  it("migrates a version 22 database, whose words stay found, then adds each call's new words to the index", async () => {
    const first = createSqliteRefStore(path);
    const original = sampleThreadRecord({ id: sampleThreadId(1) });
    const other = sampleThreadRecord({ id: sampleThreadId(2) });
    await first.createThread(original);
    await first.createThread(other);
    await first.close();
    rollBack(path, 22);
    // What a version 22 store indexed: the whole entry, again at each update (its trigger).
    const before = new Database(path);
    before.run("UPDATE thread_words SET words = words || ' zebra' WHERE thread = ?", [original.id]);
    before.close();

    const refs = createSqliteRefStore(path);
    const found = async (text: string) => (await refs.searchThreads({ text })).threads.map((thread) => thread.id);
    expect(await found("zebra")).toEqual([original.id]);
    await refs.indexThreadText(original.id, ["giraffes and zebras"]);
    // "loop" is in the index already (from the workflow's name, "review-loop"), as a word it is not yet.
    await refs.indexThreadText(original.id, ["an okapi", "zebra", "loop"]);
    await refs.indexThreadText(other.id, ["giraffes"]);
    // Words added by different calls match together, and by their prefixes.
    expect(await found("zebra okapi")).toEqual([original.id]);
    expect(await found("gira zebras")).toEqual([original.id]);
    expect(await found("giraffes")).toEqual([other.id, original.id]);
    expect(await refs.listThreadWords(original.id)).toEqual([
      original.id.toLowerCase(),
      "review",
      "loop",
      "zebra",
      "giraffes",
      "and",
      "zebras",
      "an",
      "okapi",
    ]);
    // Deleting the thread takes every word out of the index, whichever call added it.
    expect(await refs.deleteThread(original.id, original.head, new Date())).toBe(true);
    const database = new Database(path, { readonly: true });
    const matches = (word: string) =>
      database
        .query<{ rowid: number }, [string]>("SELECT rowid FROM thread_words_index WHERE thread_words_index MATCH ?")
        .all(`"${word}"*`).length;
    expect(["zebra", "zebras", "okapi", "an", "and"].map(matches)).toEqual([0, 0, 0, 0, 0]);
    expect(matches("giraffes")).toBe(1);
    expect(matches("loop")).toBe(1);
    database.close();
    await refs.close();
  });

  it("migrates a version 16 database, whose forks keep their lineage with no workflow left, and records one after", async () => {
    const { original, fork } = await forkAtVersion(path, 16);

    const refs = createSqliteRefStore(path);
    expect(await refs.getThread(fork.id)).toEqual(fork);
    expect((await refs.getThread(fork.id))?.forkedFrom).not.toHaveProperty("workflow");
    expect((await refs.listThreads({ forksOf: { thread: original.id } })).threads).toEqual([fork]);
    const onto = sampleThreadRecord({
      id: sampleThreadId(3),
      start: "2W53JPNXF556H",
      workflowAddress: "2SPNY716211N9",
      forkedFrom: {
        thread: original.id,
        step: 0,
        address: "2W53JPNXF556H",
        replaced: false,
        workflow: original.workflowAddress,
      },
    });
    await refs.createThread(onto);
    expect(await refs.getThread(onto.id)).toEqual(onto);
    await refs.close();
    const reopened = new Database(path, { readonly: true });
    expect(reopened.query("PRAGMA user_version").get()).toEqual({ user_version: REF_SCHEMA_VERSION });
    reopened.close();
  });

  it("migrates a version 19 database, whose suspended threads are then due at once and others have no deadline", async () => {
    const first = createSqliteRefStore(path);
    const suspended = sampleThreadRecord({ id: sampleThreadId(1), status: "suspended", reason: "waiting" });
    const active = sampleThreadRecord({ id: sampleThreadId(2) });
    await first.createThreads([suspended, active]);
    await first.close();
    rollBack(path, 19);

    const refs = createSqliteRefStore(path);
    expect(await refs.getThread(suspended.id)).toEqual({ ...suspended, deadline: "1970-01-01T00:00:00.000Z" });
    expect(await refs.getThread(active.id)).toEqual(active);
    const due = await refs.listThreads({ dueBy: "2000-01-01T00:00:00.000Z" });
    expect(due.threads.map((thread) => thread.id)).toEqual([suspended.id]);
    await refs.close();
  });

  it("migrates a version 7 database, whose threads then have no budget until an update gives one", async () => {
    const first = createSqliteRefStore(path);
    await first.createThread(sampleThreadRecord());
    await first.close();
    rollBack(path, 7);

    const refs = createSqliteRefStore(path);
    const record = sampleThreadRecord();
    expect(await refs.getThread(record.id)).toEqual(record);
    const budget = { maxSteps: 3, maxTokens: null, maxCostUsd: 0.5, exceeded: null };
    expect(await refs.updateThread(record.id, record.head, { budget })).toBe(true);
    expect((await refs.getThread(record.id))?.budget).toEqual(budget);
    await refs.close();
  });

  it("migrates a version 8 database, whose threads then are not queued, and claims what is queued after", async () => {
    const first = createSqliteRefStore(path);
    await first.createThread(sampleThreadRecord());
    await first.close();
    rollBack(path, 8);

    const refs = createSqliteRefStore(path);
    const record = sampleThreadRecord();
    expect(await refs.getThread(record.id)).toEqual(record);
    const claim = { ttlMs: 1000, pid: 1, host: "box", now: new Date() };
    expect(await refs.claimThread(claim)).toBeNull();
    expect(await refs.updateThread(record.id, record.head, { queued: true })).toBe(true);
    expect((await refs.claimThread(claim))?.thread).toEqual({ ...record, queued: true });
    await refs.close();
  });

  it("migrates a version 9 database, whose held leases then carry no cancel request", async () => {
    const first = createSqliteRefStore(path);
    const now = new Date();
    const held = await first.acquireLease(sampleThreadRecord().id, { ttlMs: 60_000, pid: 1, host: "box", now });
    await first.close();
    rollBack(path, 9);

    const refs = createSqliteRefStore(path);
    const [lease] = await refs.listLeases();
    expect(lease).toEqual(held.acquired ? held.lease : undefined);
    expect(lease?.cancelRequestedAt).toBeNull();
    expect((await refs.requestCancel(lease?.threadId as string, now))?.cancelRequestedAt).toBe(now.toISOString());
    await refs.close();
  });

  it("migrates a version 9 database, whose ended threads then have no outcome, and keeps one set after", async () => {
    const first = createSqliteRefStore(path);
    const ended = sampleThreadRecord({ status: "ended", next: "$END" });
    await first.createThread(ended);
    await first.close();
    rollBack(path, 9);

    const refs = createSqliteRefStore(path);
    expect(await refs.getThread(ended.id)).toEqual(ended);
    const outcome = { role: "reviewer", status: "approved", edge: { index: 1, condition: null, key: "approved" } };
    expect(await refs.updateThread(ended.id, ended.head, { outcome })).toBe(true);
    expect(await refs.getThread(ended.id)).toEqual({ ...ended, outcome });
    expect((await refs.listThreads({ outcome: "approved" })).threads.map((thread) => thread.id)).toEqual([ended.id]);
    expect((await refs.listThreads({ outcome: "rejected" })).total).toBe(0);
    await refs.close();
  });

  it("migrates a version 12 database, keeping its threads, and then keeps eval reports", async () => {
    const first = createSqliteRefStore(path);
    await first.createThread(sampleThreadRecord());
    await first.close();
    rollBack(path, 12);
    const old = new Database(path, { readonly: true });
    expect(old.query("SELECT name FROM sqlite_master WHERE name LIKE 'eval_reports%'").all()).toEqual([]);
    old.close();

    const refs = createSqliteRefStore(path);
    expect(await refs.getThread(sampleThreadRecord().id)).toEqual(sampleThreadRecord());
    expect(await refs.listEvalReports({})).toEqual({ reports: [], total: 0 });
    const report = {
      id: sampleThreadId(1),
      address: "2W53JPNXF556H",
      name: "smoke",
      createdAt: new Date().toISOString(),
    };
    await refs.saveEvalReport(report);
    expect(await refs.getEvalReport(report.id)).toEqual(report);
    await refs.close();
    const reopened = new Database(path, { readonly: true });
    expect(reopened.query("PRAGMA user_version").get()).toEqual({ user_version: REF_SCHEMA_VERSION });
    reopened.close();
  });

  it("migrates a version 14 database, whose threads then are no branches, and keeps branches after", async () => {
    const first = createSqliteRefStore(path);
    const parent = sampleThreadRecord({ status: "waiting", next: "synthesizer" });
    await first.createThread(parent);
    await first.close();
    rollBack(path, 14);
    const old = new Database(path, { readonly: true });
    expect(old.query("SELECT name FROM sqlite_master WHERE name LIKE 'branch%'").all()).toEqual([]);
    old.close();

    const refs = createSqliteRefStore(path);
    expect(await refs.getThread(parent.id)).toEqual(parent);
    expect(await refs.listBranches(parent.id)).toEqual([]);
    const { link, record: branch } = sampleBranch(parent.id);
    expect(await refs.createBranches([{ link, record: branch }])).toEqual([link]);
    expect(await refs.getThread(branch.id)).toEqual(branch);
    expect((await refs.listThreads({ status: "waiting" })).threads).toEqual([parent]);
    await refs.close();
    const reopened = new Database(path, { readonly: true });
    expect(reopened.query("PRAGMA user_version").get()).toEqual({ user_version: REF_SCHEMA_VERSION });
    expect(reopened.query("SELECT branch_of_thread FROM threads WHERE id = ?").get(branch.id)).toEqual({
      branch_of_thread: parent.id,
    });
    reopened.close();
  });

  it("recalls a chain longer than one query's page, in order", async () => {
    const links = [];
    let prev = "2W53JPNXF556H";
    for (let index = 0; index < 5000; index++) {
      const { address, bytes } = hashNode({ type: "thread-step/1", index });
      links.push({ address, prev, bytes });
      prev = address;
    }
    const refs = createSqliteRefStore(path);
    await refs.rememberChainLinks(links);
    const recalled = await refs.recallChain(prev);
    expect(recalled.map((link) => link.address)).toEqual(links.map((link) => link.address).reverse());
    await refs.close();
  });

  it("ends a recall at a cycle, which only a corrupted file could hold", async () => {
    const refs = createSqliteRefStore(path);
    await refs.close();
    const database = new Database(path);
    const insert = database.query("INSERT INTO chain_links (address, prev, bytes) VALUES (?, ?, ?)");
    insert.run("2W53JPNXF556H", "B1XRH20GCX3FB", new Uint8Array([1]));
    insert.run("B1XRH20GCX3FB", "2W53JPNXF556H", new Uint8Array([2]));
    database.close();
    const reopened = createSqliteRefStore(path);
    const recalled = await reopened.recallChain("2W53JPNXF556H");
    expect(recalled.map((link) => link.address)).toEqual(["2W53JPNXF556H", "B1XRH20GCX3FB"]);
    await reopened.close();
  });

  it("rewrites a damaged chain link when it is remembered again", async () => {
    const { address, bytes } = hashNode({ type: "thread-step/1", n: 1 });
    const link = { address, prev: "2W53JPNXF556H", bytes };
    const refs = createSqliteRefStore(path);
    await refs.rememberChainLinks([link]);
    const database = new Database(path);
    database.query("UPDATE chain_links SET bytes = ?").run(new Uint8Array([1, 2, 3]));
    database.close();
    expect((await refs.recallChain(address))[0]?.bytes).toEqual(new Uint8Array([1, 2, 3]));
    await refs.rememberChainLinks([link]);
    expect(await refs.recallChain(address)).toEqual([link]);
    await refs.close();
  });

  it("recalls a damaged chain index as none, even extended, and rewrites it when it is remembered again", async () => {
    const index = { start: "2W53JPNXF556H", steps: [{ address: "B1XRH20GCX3FB", role: "writer" }] } as const;
    const refs = createSqliteRefStore(path);
    for (const damaged of ["[[", '{"a":1}', '[["B1XRH20GCX3FB"]]', '[["B1XRH20GCX3FB", 7]]']) {
      await refs.rememberChainIndex("T", index);
      const database = new Database(path);
      database.query("UPDATE chain_indexes SET steps = ?").run(damaged);
      database.close();
      expect(await refs.recallChainIndex("T")).toBeNull();
      await refs.extendChainIndex("T", "B1XRH20GCX3FB", [{ address: "191B06QRP5RG9", role: "x" }]);
      expect(await refs.recallChainIndex("T")).toBeNull(); // extending a damaged index never makes it readable
    }
    await refs.rememberChainIndex("T", index);
    expect(await refs.recallChainIndex("T")).toEqual(index);
    await refs.close();
  });

  it("migrates a version 22 database, whose chain indexes then have no steps' details, and gain them as steps append", async () => {
    const index = { start: "2W53JPNXF556H", steps: [{ address: "B1XRH20GCX3FB", role: "writer" }] };
    const first = createSqliteRefStore(path);
    await first.rememberChainIndex("T", index);
    await first.close();
    rollBack(path, 22);

    const refs = createSqliteRefStore(path);
    expect(await refs.recallChainIndex("T", { details: true })).toEqual(index);
    const next = { address: "191B06QRP5RG9", role: "reviewer", details: SAMPLE_DETAILS };
    expect(await refs.extendChainIndex("T", "B1XRH20GCX3FB", [next])).toBe(true);
    expect(await refs.recallChainIndex("T", { details: true })).toEqual({ ...index, steps: [...index.steps, next] });
    await refs.close();
  });

  it("recalls a chain index without the steps' details that are damaged, and appends after them", async () => {
    const index = { start: "2W53JPNXF556H", steps: [{ address: "B1XRH20GCX3FB", role: "writer" }] };
    const first = { address: "B1XRH20GCX3FB", role: "writer", details: { ...SAMPLE_DETAILS, agent: "first" } };
    const next = { address: "191B06QRP5RG9", role: "reviewer", details: SAMPLE_DETAILS };
    const refs = createSqliteRefStore(path);
    const damagedEntries = [
      "[[",
      "7",
      '{"a":1}',
      '["B1XRH20GCX3FB","../x","B1XRH20GCX3FB","a","t0","t1",null,null]',
      '["B1XRH20GCX3FB","2SPNY716211N9","B1XRH20GCX3FB","a","t0","t1",7,null]',
      '["B1XRH20GCX3FB","2SPNY716211N9","B1XRH20GCX3FB","a","t0","t1",null,{"costUsd":"1"}]',
      '["B1XRH20GCX3FB"]',
    ];
    for (const damaged of damagedEntries) {
      await refs.rememberChainIndex("T", { ...index, steps: [first] });
      const database = new Database(path);
      database.query("UPDATE chain_index_details SET entry = ?").run(damaged);
      database.close();
      expect(await refs.recallChainIndex("T", { details: true })).toEqual(index);
      expect(await refs.extendChainIndex("T", "B1XRH20GCX3FB", [next])).toBe(true);
      expect(await refs.recallChainIndex("T", { details: true })).toEqual({ ...index, steps: [...index.steps, next] });
    }
    await refs.close();
  });

  it("opens read-only: reads what is committed, in the WAL too, and fails every write, creating nothing", async () => {
    const writer = createSqliteRefStore(path);
    await writer.createThread(sampleThreadRecord());
    const reader = createSqliteRefStore(path, { readOnly: true });
    try {
      expect((await reader.getThread(sampleThreadId(1)))?.id).toBe(sampleThreadId(1));
      const refused = await reader
        .createThread(sampleThreadRecord({ id: sampleThreadId(2) }))
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: "ref-store-unavailable", data: { sqliteCode: "SQLITE_READONLY" } });
    } finally {
      await reader.close();
      await writer.close();
    }
    const missing = join(home.path, "missing.db");
    expect(() => createSqliteRefStore(missing, { readOnly: true })).toThrow(/cannot be opened/);
    expect(existsSync(missing)).toBe(false);
  });

  it("refuses a database written by a newer uwf", async () => {
    await createSqliteRefStore(path).close();
    const database = new Database(path);
    database.run(`PRAGMA user_version = ${REF_SCHEMA_VERSION + 1}`);
    database.close();
    expect(() => createSqliteRefStore(path)).toThrow(
      expect.objectContaining({ code: "store-too-new", message: expect.stringContaining("upgrade uwf") }),
    );
  });

  it("fails with RefStoreDamagedError on a file that is not a database, changing nothing", async () => {
    writeFileSync(path, "not a database at all ".repeat(200));
    expect(() => createSqliteRefStore(path)).toThrow(RefStoreDamagedError);
    expect(() => createSqliteRefStore(path)).toThrow(`the ref store ${path} is damaged (file is not a database)`);
    expect(readFileSync(path, "utf8")).toBe("not a database at all ".repeat(200));
    expect(findRefDatabaseDamage(path)).toBe("file is not a database");
  });

  it("fails with RefStoreDamagedError wherever a half-truncated database is first read, until set aside", async () => {
    const refs = createSqliteRefStore(path);
    for (let index = 1; index <= 400; index++) {
      await refs.createThread(sampleThreadRecord({ id: sampleThreadId(index), reason: "x".repeat(200) }));
    }
    await refs.close();
    truncateSync(path, Math.floor(statSync(path).size / 2));
    const size = statSync(path).size;
    expect(findRefDatabaseDamage(path)).not.toBeNull();
    const failure = (async () => {
      const damaged = createSqliteRefStore(path);
      try {
        await damaged.listThreads({});
        for await (const _root of damaged.listThreadRoots());
      } finally {
        await damaged.close();
      }
    })();
    await expect(failure).rejects.toThrow(RefStoreDamagedError);
    await expect(failure).rejects.toThrow("`uwf cas recover` moves it aside");
    expect(statSync(path).size).toBe(size);

    const aside = setAsideRefDatabase(path, new Date("2026-03-04T05:06:07.890Z"));
    expect(aside).toBe(`${path}.damaged-20260304T050607Z`);
    expect(statSync(aside).size).toBe(size);
    expect(existsSync(path)).toBe(false);
    const fresh = createSqliteRefStore(path);
    expect(await fresh.listThreads({})).toEqual({ threads: [], total: 0 });
    await fresh.close();
    expect(findRefDatabaseDamage(path)).toBeNull();
  });

  it("lists with a filter through an index rather than a table scan", async () => {
    const refs = createSqliteRefStore(path);
    await refs.close();
    const database = new Database(path, { readonly: true });
    const plan = (sql: string) =>
      database
        .query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((row) => row.detail)
        .join("; ");
    expect(plan("SELECT id FROM threads WHERE status = 'active' ORDER BY id DESC LIMIT 10")).toContain(
      "threads_by_status",
    );
    expect(plan("SELECT id FROM threads WHERE workflow = 'w' ORDER BY id DESC LIMIT 10")).toContain(
      "threads_by_workflow",
    );
    expect(plan("SELECT id FROM threads WHERE id >= 'A' AND id < 'B'")).toContain("PRIMARY KEY");
    expect(plan("SELECT id FROM threads WHERE forked_from_thread = 'T' ORDER BY id DESC")).toContain(
      "threads_by_parent",
    );
    expect(plan("SELECT id FROM threads WHERE start = '2W53JPNXF556H' ORDER BY id DESC")).toContain("threads_by_start");
    expect(plan("SELECT id FROM eval_reports WHERE name = 'smoke' ORDER BY id DESC LIMIT 10")).toContain(
      "eval_reports_by_name",
    );
    expect(plan("SELECT id FROM threads WHERE branch_of_thread = 'T' ORDER BY id")).toContain(
      "threads_by_branch_parent",
    );
    expect(plan("SELECT thread FROM branch_links WHERE parent = 'T' AND step = 3 ORDER BY idx")).toContain(
      "PRIMARY KEY",
    );
    expect(plan("SELECT parent FROM branch_links WHERE thread = 'T'")).toContain("branch_links_by_thread");
    // A plain `uwf list` leaves explorations out: its count reads only an index, never the table's rows.
    expect(plan("SELECT count(*) AS total FROM threads WHERE explored_by IS NULL")).toContain(
      "COVERING INDEX threads_not_explored",
    );
    database.close();
  });
});

/** Turns the closed database at `path` back into what schema version `version` created, keeping its rows. */
/** A thread and a fork of it at its first step, stored at `path`, the database then rolled back to `version`. */
const SAMPLE_DETAILS = {
  output: "2SPNY716211N9",
  body: "B1XRH20GCX3FB",
  agent: "scripted:review",
  startedAt: "2026-02-03T04:05:06.000Z",
  completedAt: "2026-02-03T04:05:07.000Z",
  status: "approved",
  usage: { cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.01, inputTokens: 10, outputTokens: 5 },
};

async function forkAtVersion(path: string, version: number): Promise<{ original: ThreadRecord; fork: ThreadRecord }> {
  const first = createSqliteRefStore(path);
  const original = sampleThreadRecord({ id: sampleThreadId(1), start: "2W53JPNXF556H" });
  const fork = sampleThreadRecord({
    id: sampleThreadId(2),
    start: "2W53JPNXF556H",
    head: "B1XRH20GCX3FB",
    forkedFrom: { thread: original.id, step: 0, address: "2W53JPNXF556H", replaced: false },
  });
  await first.createThread(original);
  await first.createThread(fork);
  await first.close();
  rollBack(path, version);
  return { original, fork };
}
