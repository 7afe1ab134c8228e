import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTemporaryDirectory } from "../test/temporary-directory.ts";
import { createSqliteRefStore } from "./create-sqlite-ref-store.ts";
import { hashNode } from "./hash-node.ts";
import { REF_SCHEMA_VERSION } from "./open-ref-database.ts";
import { findRefDatabaseDamage, setAsideRefDatabase } from "./ref-database-damage.ts";
import { RefStoreDamagedError } from "./ref-store-damaged-error.ts";
import { sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";

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
      "chain_indexes",
      "chain_links",
      "leases",
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
    const database = new Database(path);
    database.run("DROP TABLE chain_links"); // back to what version 1 created
    database.run("DROP TABLE chain_indexes");
    database.run("ALTER TABLE threads DROP COLUMN recovered_from");
    database.run("ALTER TABLE threads DROP COLUMN failed_usage");
    for (const column of ["process_start", "agent_group", "agent_start"]) {
      database.run(`ALTER TABLE leases DROP COLUMN ${column}`);
    }
    database.run("PRAGMA user_version = 1");
    database.close();

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
    const database = new Database(path);
    for (const column of ["process_start", "agent_group", "agent_start"]) {
      database.run(`ALTER TABLE leases DROP COLUMN ${column}`);
    }
    database.run("ALTER TABLE threads DROP COLUMN failed_usage");
    database.run("PRAGMA user_version = 4");
    database.close();

    const refs = createSqliteRefStore(path);
    const old = { ...held.lease, processStart: null };
    expect(await refs.listLeases()).toEqual([old]);
    expect(await refs.recordLeaseAgent(old, { group: 4321, start: "8" })).toBe(true);
    expect(await refs.listLeases()).toEqual([{ ...old, agentGroup: 4321, agentStart: "8" }]);
    await refs.close();
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
    database.close();
  });
});
