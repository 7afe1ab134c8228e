import { describe, expect, it } from "bun:test";
import { SQL } from "bun";
import { RefStoreBusyError } from "../errors/ref-store-busy-error.ts";
import { StoreRefusedError } from "../errors/store-refused-error.ts";
import { StoreTooNewError } from "../errors/store-too-new-error.ts";
import { StoreUnreachableError } from "../errors/store-unreachable-error.ts";
import { runStoreConformanceSuite } from "../testing/conformance-suite.ts";
import { openTestStore } from "../testing/open-test-store.ts";
import { sampleBranch } from "../testing/sample-branch.ts";
import { sampleThreadId, sampleThreadRecord } from "../testing/sample-nodes.ts";
import { startOwnTestPostgres, startTestPostgres } from "../testing/start-test-postgres.ts";
import { waitFor } from "../testing/wait-for.ts";
import { openPostgresStore } from "./open-postgres-store.ts";
import { POSTGRES_SCHEMA_VERSION } from "./postgres-migrations.ts";

// Against a real server, never skipped: without one, every test fails saying why.
runStoreConformanceSuite("PostgreSQL", () => openTestStore("postgres"));

/** Runs one statement on the server as the test user, outside any store. */
async function onServer(url: string, statement: string): Promise<unknown[]> {
  const sql = new SQL(url.replace(/\?.*$/, ""), { max: 1 });
  try {
    return [...(await sql.unsafe(statement))];
  } finally {
    await sql.close();
  }
}

describe("openPostgresStore", () => {
  it("creates its schema once when many processes' stores open a new one at the same time", async () => {
    const url = (await startTestPostgres()).newStoreUrl();
    const stores = await Promise.all(Array.from({ length: 8 }, () => openPostgresStore(url)));
    await stores[0]?.refs.createThread(sampleThreadRecord());
    for (const store of stores) expect((await store.refs.listThreads({})).total).toBe(1);
    await Promise.all(stores.map((store) => store.close()));
    const schema = new URL(url).searchParams.get("schema");
    expect(await onServer(url, `SELECT version FROM "${schema}".schema_version`)).toEqual([
      { version: POSTGRES_SCHEMA_VERSION },
    ]);
  });

  it("refuses a schema a newer uwf wrote, changing nothing", async () => {
    const url = (await startTestPostgres()).newStoreUrl();
    await (await openPostgresStore(url)).close();
    const schema = new URL(url).searchParams.get("schema");
    await onServer(url, `UPDATE "${schema}".schema_version SET version = ${POSTGRES_SCHEMA_VERSION + 1}`);
    const opening = openPostgresStore(url);
    await expect(opening).rejects.toThrow(StoreTooNewError);
    await expect(opening).rejects.toThrow(`(schema ${schema}) has ref schema version ${POSTGRES_SCHEMA_VERSION + 1}`);
    expect(await onServer(url, `SELECT version FROM "${schema}".schema_version`)).toEqual([
      { version: POSTGRES_SCHEMA_VERSION + 1 },
    ]);
  });

  it("migrates a version 1 schema, whose held leases then carry no cancel request", async () => {
    const url = (await startTestPostgres()).newStoreUrl();
    const first = await openPostgresStore(url);
    const now = new Date();
    const held = await first.refs.acquireLease(sampleThreadRecord().id, { ttlMs: 60_000, pid: 1, host: "box", now });
    await first.close();
    const schema = new URL(url).searchParams.get("schema");
    await onServer(url, `DROP TABLE "${schema}".eval_reports`);
    await onServer(url, `ALTER TABLE "${schema}".leases DROP COLUMN cancel_requested_at`);
    await onServer(url, `DROP TABLE "${schema}".deleted_threads`);
    await onServer(url, `ALTER TABLE "${schema}".threads DROP COLUMN outcome`);
    await onServer(url, `DROP TABLE "${schema}".branch_links`);
    await onServer(url, `ALTER TABLE "${schema}".threads DROP COLUMN branch_of, DROP COLUMN branch_of_thread`);
    await onServer(url, `UPDATE "${schema}".schema_version SET version = 1`);

    const store = await openPostgresStore(url);
    try {
      const [lease] = await store.refs.listLeases();
      expect(lease).toEqual(held.acquired ? held.lease : undefined);
      expect((await store.refs.requestCancel(lease?.threadId as string, now))?.cancelRequestedAt).toBe(
        now.toISOString(),
      );
    } finally {
      await store.close();
    }
    expect(await onServer(url, `SELECT version FROM "${schema}".schema_version`)).toEqual([
      { version: POSTGRES_SCHEMA_VERSION },
    ]);
  });

  it("migrates a version 4 schema, keeping its threads, and then keeps eval reports", async () => {
    const url = (await startTestPostgres()).newStoreUrl();
    const first = await openPostgresStore(url);
    await first.refs.createThread(sampleThreadRecord());
    await first.close();
    const schema = new URL(url).searchParams.get("schema");
    await onServer(url, `DROP TABLE "${schema}".eval_reports`);
    await onServer(url, `DROP TABLE "${schema}".branch_links`);
    await onServer(url, `ALTER TABLE "${schema}".threads DROP COLUMN branch_of, DROP COLUMN branch_of_thread`);
    await onServer(url, `UPDATE "${schema}".schema_version SET version = 4`);

    const store = await openPostgresStore(url);
    try {
      expect(await store.refs.getThread(sampleThreadRecord().id)).toEqual(sampleThreadRecord());
      expect(await store.refs.listEvalReports({})).toEqual({ reports: [], total: 0 });
      const report = {
        id: sampleThreadId(1),
        address: "2W53JPNXF556H",
        name: "smoke",
        createdAt: new Date().toISOString(),
      };
      await store.refs.saveEvalReport(report);
      expect(await store.refs.listEvalReports({ name: "smoke" })).toEqual({ reports: [report], total: 1 });
    } finally {
      await store.close();
    }
    expect(await onServer(url, `SELECT version FROM "${schema}".schema_version`)).toEqual([
      { version: POSTGRES_SCHEMA_VERSION },
    ]);
  });

  it("migrates a version 6 schema, whose threads then are no branches, and keeps branches after", async () => {
    const url = (await startTestPostgres()).newStoreUrl();
    const first = await openPostgresStore(url);
    const parent = sampleThreadRecord({ status: "waiting", next: "synthesizer" });
    await first.refs.createThread(parent);
    await first.close();
    const schema = new URL(url).searchParams.get("schema");
    await onServer(url, `DROP TABLE "${schema}".branch_links`);
    await onServer(url, `ALTER TABLE "${schema}".threads DROP COLUMN branch_of, DROP COLUMN branch_of_thread`);
    await onServer(url, `UPDATE "${schema}".schema_version SET version = 6`);

    const store = await openPostgresStore(url);
    let signals = 0;
    const stop = await store.refs.watchChanges(() => {
      signals++;
    });
    try {
      expect(await store.refs.getThread(parent.id)).toEqual(parent);
      expect(await store.refs.listBranches(parent.id)).toEqual([]);
      const { link, record: branch } = sampleBranch(parent.id);
      expect(await store.refs.createBranches([{ link, record: branch }])).toEqual([link]);
      expect(await store.refs.getThread(branch.id)).toEqual(branch);
      expect(await onServer(url, `SELECT branch_of_thread FROM "${schema}".threads WHERE id = '${branch.id}'`)).toEqual(
        [{ branch_of_thread: parent.id }],
      );
      // The links' own trigger signals a change: a link to a thread that exists writes no thread.
      await waitFor(() => signals > 0, { what: "the signal of the first branch", timeoutMs: 5_000 });
      const before = signals;
      await store.refs.createBranches([{ link: { ...link, parent: sampleThreadId(3) } }]);
      await waitFor(() => signals > before, { what: "the signal of a link alone", timeoutMs: 5_000 });
    } finally {
      await stop();
      await store.close();
    }
    expect(await onServer(url, `SELECT version FROM "${schema}".schema_version`)).toEqual([
      { version: POSTGRES_SCHEMA_VERSION },
    ]);
  });

  it("migrates a version 8 schema, whose forks keep their lineage with no workflow left, and records one after", async () => {
    const url = (await startTestPostgres()).newStoreUrl();
    const first = await openPostgresStore(url);
    const parent = sampleThreadRecord({ id: sampleThreadId(1) });
    const fork = sampleThreadRecord({
      id: sampleThreadId(2),
      forkedFrom: { thread: parent.id, step: 0, address: parent.start, replaced: false },
    });
    await first.refs.createThreads([parent, fork]);
    await first.close();
    const schema = new URL(url).searchParams.get("schema");
    await onServer(url, `ALTER TABLE "${schema}".threads DROP COLUMN forked_from_workflow`);
    await onServer(url, `UPDATE "${schema}".schema_version SET version = 8`);

    const store = await openPostgresStore(url);
    try {
      expect(await store.refs.getThread(fork.id)).toEqual(fork);
      expect((await store.refs.getThread(fork.id))?.forkedFrom).not.toHaveProperty("workflow");
      const onto = sampleThreadRecord({
        id: sampleThreadId(3),
        workflowAddress: "B1XRH20GCX3FB",
        forkedFrom: {
          thread: parent.id,
          step: 0,
          address: parent.start,
          replaced: false,
          workflow: parent.workflowAddress,
        },
      });
      await store.refs.createThread(onto);
      expect((await store.refs.listThreads({ forksOf: { thread: parent.id } })).threads).toEqual([onto, fork]);
    } finally {
      await store.close();
    }
    expect(await onServer(url, `SELECT version FROM "${schema}".schema_version`)).toEqual([
      { version: POSTGRES_SCHEMA_VERSION },
    ]);
  });

  it("migrates a version 12 schema, whose suspended threads are then due at once and others have no deadline", async () => {
    const url = (await startTestPostgres()).newStoreUrl();
    const first = await openPostgresStore(url);
    const suspended = sampleThreadRecord({ id: sampleThreadId(1), status: "suspended", reason: "waiting" });
    const active = sampleThreadRecord({ id: sampleThreadId(2) });
    await first.refs.createThreads([suspended, active]);
    await first.close();
    const schema = new URL(url).searchParams.get("schema");
    await onServer(url, `DROP INDEX "${schema}".threads_by_deadline`);
    await onServer(url, `ALTER TABLE "${schema}".threads DROP COLUMN deadline`);
    await onServer(url, `UPDATE "${schema}".schema_version SET version = 12`);

    const store = await openPostgresStore(url);
    try {
      expect(await store.refs.getThread(suspended.id)).toEqual({ ...suspended, deadline: "1970-01-01T00:00:00.000Z" });
      expect(await store.refs.getThread(active.id)).toEqual(active);
      const due = await store.refs.listThreads({ dueBy: "2000-01-01T00:00:00.000Z" });
      expect(due.threads.map((thread) => thread.id)).toEqual([suspended.id]);
    } finally {
      await store.close();
    }
    expect(await onServer(url, `SELECT version FROM "${schema}".schema_version`)).toEqual([
      { version: POSTGRES_SCHEMA_VERSION },
    ]);
  });

  it("migrates a version 13 schema, whose chain indexes then have no steps' details, and gain them as steps append", async () => {
    const url = (await startTestPostgres()).newStoreUrl();
    const first = await openPostgresStore(url);
    const index = { start: "2W53JPNXF556H", steps: [{ address: "B1XRH20GCX3FB", role: "writer" }] };
    await first.refs.rememberChainIndex(sampleThreadId(1), index);
    await first.close();
    const schema = new URL(url).searchParams.get("schema");
    await onServer(url, `DROP TABLE "${schema}".chain_index_details`);
    await onServer(url, `UPDATE "${schema}".schema_version SET version = 13`);

    const store = await openPostgresStore(url);
    try {
      expect(await store.refs.recallChainIndex(sampleThreadId(1), { details: true })).toEqual(index);
      const details = {
        output: "2SPNY716211N9",
        body: "B1XRH20GCX3FB",
        agent: "scripted:review",
        startedAt: "2026-02-03T04:05:06.000Z",
        completedAt: "2026-02-03T04:05:07.000Z",
        status: null,
        usage: null,
      };
      const next = { address: "191B06QRP5RG9", role: "reviewer", details };
      expect(await store.refs.extendChainIndex(sampleThreadId(1), "B1XRH20GCX3FB", [next])).toBe(true);
      expect(await store.refs.recallChainIndex(sampleThreadId(1), { details: true })).toEqual({
        ...index,
        steps: [...index.steps, next],
      });
    } finally {
      await store.close();
    }
    expect(await onServer(url, `SELECT version FROM "${schema}".schema_version`)).toEqual([
      { version: POSTGRES_SCHEMA_VERSION },
    ]);
  });

  it("tells a server out of reach from one that refuses the login, never showing the password", async () => {
    const url = new URL((await startTestPostgres()).newStoreUrl());
    const away = new URL(url);
    away.port = "1";
    const opening = openPostgresStore(away.toString());
    await expect(opening).rejects.toThrow(StoreUnreachableError);
    await expect(opening).rejects.toThrow(`the store postgres://uwf:****@127.0.0.1:1/`);
    const wrong = new URL(url);
    wrong.password = "wrong";
    await expect(openPostgresStore(wrong.toString())).rejects.toThrow(StoreRefusedError);
    await expect(openPostgresStore(wrong.toString())).rejects.toThrow("SQLSTATE 28P01");
  });

  it("refuses sslmode=require against a server without SSL instead of calling it unreachable", async () => {
    const url = new URL((await startTestPostgres()).newStoreUrl());
    url.searchParams.set("sslmode", "require");
    const opening = openPostgresStore(url.toString());
    await expect(opening).rejects.toThrow(StoreRefusedError);
    await expect(opening).rejects.toThrow(
      "the server offers no SSL: enable it there, or change sslmode in the store URL",
    );
  });

  it("refuses, in one line, when the server's statement_timeout cancels uwf's statements", async () => {
    const server = await startTestPostgres();
    const role = `uwf_hasty_${process.pid}`;
    await onServer(server.url, `CREATE ROLE ${role} LOGIN SUPERUSER PASSWORD 'hasty'`);
    await onServer(server.url, `ALTER ROLE ${role} SET statement_timeout = '1ms'`);
    try {
      const url = new URL(server.newStoreUrl());
      url.username = role;
      url.password = "hasty";
      // A statement slower than 1 ms, as the server sees it: migrating a new schema is several.
      const opening = openPostgresStore(url.toString());
      await expect(opening).rejects.toThrow(StoreRefusedError);
      await expect(opening).rejects.toThrow("(SQLSTATE 57014); the server's statement_timeout cancelled it");
    } finally {
      await onServer(server.url, `DROP ROLE ${role}`);
    }
  });

  it("reports rows another session keeps locked as busy once its lock timeout runs out, instead of waiting forever", async () => {
    const url = (await startTestPostgres()).newStoreUrl();
    const store = await openPostgresStore(url, { lockTimeoutSeconds: 0.2 });
    const record = sampleThreadRecord();
    await store.refs.createThread(record);
    const schema = new URL(url).searchParams.get("schema");
    const holder = new SQL(url.replace(/\?.*$/, ""), { max: 1 });
    try {
      await holder.begin(async (transaction) => {
        await transaction.unsafe(`SELECT id FROM "${schema}".threads WHERE id = $1 FOR UPDATE`, [record.id]);
        const update = store.refs.updateThread(record.id, record.head, { status: "cancelled" });
        await expect(update).rejects.toThrow(RefStoreBusyError);
        await expect(update).rejects.toThrow("another session kept a row uwf needs locked (SQLSTATE 55P03)");
      });
    } finally {
      await holder.close();
      await store.close();
    }
  });

  it("carries a call whose session the server ends, and the sessions it ended while idle, over to new ones", async () => {
    const url = (await startTestPostgres()).newStoreUrl();
    const schema = new URL(url).searchParams.get("schema");
    const store = await openPostgresStore(url);
    const record = sampleThreadRecord();
    await store.refs.createThread(record);
    await Promise.all([store.refs.listLeases(), store.objects.has("2W53JPNXF556H")]); // two pooled sessions
    // Another session locks the threads table, so the store's next read waits on the server...
    const holder = new SQL(url.replace(/\?.*$/, ""), { max: 1 });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = holder.begin(async (transaction) => {
      await transaction.unsafe(`LOCK TABLE "${schema}".threads IN ACCESS EXCLUSIVE MODE`);
      locked();
      await released;
    });
    await isLocked;
    const waiting = store.refs.getThread(record.id);
    await waitFor(
      async () =>
        (
          await onServer(
            url,
            "SELECT 1 FROM pg_stat_activity WHERE application_name = 'uwf' AND wait_event_type = 'Lock'",
          )
        ).length > 0,
      { what: "the store's read to wait on the lock" },
    );
    // ...until the server ends every uwf session, as a restart does: the read is tried again on a new one.
    await onServer(url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'uwf'");
    release();
    await holding;
    await holder.close();
    expect(await waiting).toEqual(record);
    expect(await Promise.all([store.refs.listLeases(), store.objects.has("2W53JPNXF556H")])).toEqual([[], false]);
    expect(await store.refs.updateThread(record.id, record.head, { stepCount: 1 })).toBe(true);
    await store.close();
  });

  it("fails as unreachable while its server is down, changing nothing, and works again once it is back", async () => {
    const own = await startOwnTestPostgres();
    const store = await openPostgresStore(own.newStoreUrl());
    const record = sampleThreadRecord();
    await store.refs.createThread(record);
    await own.stop();
    await expect(store.refs.updateThread(record.id, record.head, { stepCount: 1 })).rejects.toThrow(
      StoreUnreachableError,
    );
    await expect(store.objects.put({ lost: true })).rejects.toThrow(StoreUnreachableError);
    await own.start();
    expect(await store.refs.getThread(record.id)).toEqual(record);
    expect(await store.objects.has(await store.objects.put({ kept: true }))).toBe(true);
    await store.close();
  });
});
