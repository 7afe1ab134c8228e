import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { createTemporaryDirectory } from "../test/temporary-directory.ts";
import { createSqliteRefStore } from "./create-sqlite-ref-store.ts";
import { REF_SCHEMA_VERSION } from "./open-ref-database.ts";
import { sampleThreadRecord } from "./sample-nodes.ts";

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
    expect(tables.map((table) => table.name)).toEqual(["leases", "threads", "workflows"]);
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

  it("refuses a database written by a newer uwf", async () => {
    await createSqliteRefStore(path).close();
    const database = new Database(path);
    database.run(`PRAGMA user_version = ${REF_SCHEMA_VERSION + 1}`);
    database.close();
    expect(() => createSqliteRefStore(path)).toThrow("ref schema version");
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
