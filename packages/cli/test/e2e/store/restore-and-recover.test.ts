import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { copyFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { createSqliteRefStore, refDatabasePath } from "@uwf/cas";
import {
  casRecoverResultSchema,
  deleteResultSchema,
  forkResultSchema,
  gcReportSchema,
  type ListedThread,
  listResultSchema,
  logResultSchema,
  startResultSchema,
  verifyReportSchema,
} from "@uwf/protocol";
import { newPostgresSchema } from "../../helpers/postgres-schema.ts";
import { createTempHome, FIXTURES, type TempHome } from "../../helpers/temp-home.ts";
import { startOnTerminal } from "../../helpers/terminal.ts";

const HOUR = 60 * 60 * 1000;

let temp: TempHome;
beforeEach(() => {
  temp = createTempHome();
  temp.writeConfig(
    ["agents:", "  forever:", "    command: sh", `    args: ["${join(FIXTURES, "agents/review-forever.sh")}"]`].join(
      "\n",
    ),
  );
  // long-review with a budget of its own, which a rebuilt thread must get back.
  const workflow = Bun.file(join(FIXTURES, "workflows/long-review.yaml"));
  writeFileSync(join(temp.work, "long-review.yaml"), `budget: { max_steps: 12 }\n${readFileSyncText(workflow)}`);
});
afterEach(() => temp.cleanup());

function readFileSyncText(file: ReturnType<typeof Bun.file>): string {
  return new TextDecoder().decode(Bun.spawnSync(["cat", file.name as string]).stdout);
}

/** Where a store keeps its refs and objects, and how a test backs them up, restores and ages them. */
interface StoreUnderTest {
  env: Record<string, string>;
  /** A copy of the ref store as it is now (refs.db, or the PostgreSQL tables). */
  backUpRefs(): Promise<void>;
  /** Puts the copy back, as an operator restoring a backup would. */
  restoreRefs(): Promise<void>;
  /** Empties the ref store. */
  loseRefs(): Promise<void>;
  /** Makes every object look written two hours ago: older than gc's default grace. */
  ageObjects(): Promise<void>;
  objects(): Promise<string[]>;
}

function fileStore(): StoreUnderTest {
  const refs = join(temp.home, "refs.db");
  const backup = join(temp.home, "..", "refs.backup.db");
  const objectFiles = () => {
    const root = join(temp.home, "objects");
    return readdirSync(root).flatMap((shard) => readdirSync(join(root, shard)).map((name) => `${shard}/${name}`));
  };
  const dropJournal = () => {
    for (const suffix of ["-wal", "-shm"]) rmSync(`${refs}${suffix}`, { force: true });
  };
  return {
    env: {},
    async backUpRefs() {
      const database = new Database(refs);
      database.run(`VACUUM INTO '${backup}'`);
      database.close();
    },
    async restoreRefs() {
      dropJournal();
      copyFileSync(backup, refs);
    },
    async loseRefs() {
      dropJournal();
      writeFileSync(refs, "");
    },
    async ageObjects() {
      const old = new Date(Date.now() - 2 * HOUR);
      for (const file of objectFiles()) utimesSync(join(temp.home, "objects", file), old, old);
    },
    objects: async () => objectFiles().sort(),
  };
}

async function postgresStore(): Promise<StoreUnderTest> {
  const { url, schema, run } = await newPostgresSchema();
  const tables = ["threads", "chain_indexes"];
  return {
    env: { UWF_STORE: url },
    async backUpRefs() {
      for (const table of tables) {
        await run(`CREATE TABLE ${schema}.${table}_backup AS SELECT * FROM ${schema}.${table}`);
      }
    },
    async restoreRefs() {
      for (const table of tables) {
        await run(
          `DELETE FROM ${schema}.${table}; INSERT INTO ${schema}.${table} SELECT * FROM ${schema}.${table}_backup`,
        );
      }
    },
    async loseRefs() {
      for (const table of tables) await run(`DELETE FROM ${schema}.${table}`);
    },
    async ageObjects() {
      await run(`UPDATE ${schema}.objects SET written_at = written_at - ${2 * HOUR}`);
    },
    objects: async () =>
      (await run(`SELECT address FROM ${schema}.objects ORDER BY address`)).map((row) => String(row.address)),
  };
}

/** A small set of commands against one store. */
function commands(store: StoreUnderTest) {
  const uwf = (args: string[]) => temp.uwf(args, { env: store.env });
  const ok = async (args: string[]) => {
    const result = await uwf([...args, "--json"]);
    if (result.exitCode !== 0) throw new Error(`uwf ${args.join(" ")} exited ${result.exitCode}: ${result.stderr}`);
    return result.json();
  };
  return {
    uwf,
    async start(prompt: string): Promise<string> {
      return startResultSchema.parse(await ok(["start", join(temp.work, "long-review.yaml"), "-p", prompt])).thread;
    },
    async step(thread: string, steps: number): Promise<void> {
      await ok(["step", thread, "-n", String(steps), "--agent", "forever"]);
    },
    async fork(address: string, replacement?: string): Promise<string> {
      const args = ["fork", address];
      if (replacement !== undefined) {
        const file = join(temp.work, `reply-${address}.md`);
        writeFileSync(file, replacement);
        args.push("--output", file);
      }
      return forkResultSchema.parse(await ok(args)).thread;
    },
    /** The thread's chain: its start node, then each step's address. */
    async chain(thread: string): Promise<string[]> {
      const shown = (await ok(["show", thread])) as { start: string };
      return [shown.start, ...logResultSchema.parse(await ok(["log", thread])).steps.map((step) => step.address)];
    },
    async records(): Promise<Map<string, ListedThread>> {
      const listed = listResultSchema.parse(await ok(["list", "--limit", "100"]));
      return new Map(listed.threads.map((thread) => [thread.id, thread]));
    },
  };
}

/**
 * A record as recover rebuilds it, to compare with the one lost: `recoveredFrom` marks it, and its creation
 * time is its id's (a ULID's time), which `start` and `fork` take from the same clock a moment apart.
 */
function comparable(record: ListedThread | undefined): unknown {
  if (record === undefined) return undefined;
  const { recoveredFrom: _recoveredFrom, createdAt: _createdAt, ...rest } = record;
  return rest;
}

/** The records' creation times agree to within the moment between taking an id and the time. */
function expectCreatedTogether(left: ListedThread | undefined, right: ListedThread | undefined): void {
  const difference = Math.abs(Date.parse(left?.createdAt ?? "") - Date.parse(right?.createdAt ?? ""));
  expect(difference).toBeLessThan(1000);
}

async function restoreThenGc(store: StoreUnderTest): Promise<void> {
  const uwf = commands(store);
  const original = await uwf.start("Write the release notes");
  await uwf.step(original, 2);
  await store.backUpRefs();

  // After the backup: the original steps on, a fork of its new head steps, a fork of an old node steps.
  await uwf.step(original, 2);
  const [start, , second, , fourth] = await uwf.chain(original);
  const ofNewHead = await uwf.fork(fourth as string);
  await uwf.step(ofNewHead, 2);
  const ofOldNode = await uwf.fork(second as string);
  await uwf.step(ofOldNode, 1);
  // And a step the original made but never recorded, off its chain (killed after writing it, then stepped again).
  const third = (await uwf.chain(original))[3] as string;
  const node = JSON.parse((await uwf.uwf(["cas", "get", third])).stdout) as Record<string, unknown>;
  const put = await temp.uwf(["cas", "put", "--json"], {
    env: store.env,
    stdin: JSON.stringify({ ...node, edgePrompt: "a step killed before it moved the head" }),
  });
  const abandoned = (put.json() as { address: string }).address;
  const before = await uwf.records();
  const lostHeads = {
    original: before.get(original)?.head as string,
    ofNewHead: before.get(ofNewHead)?.head as string,
    ofOldNode: before.get(ofOldNode)?.head as string,
  };

  await store.ageObjects();
  await store.restoreRefs();
  const objects = await store.objects();
  expect([...(await uwf.records()).keys()]).toEqual([original]);

  const verify = await uwf.uwf(["cas", "verify", "--json"]);
  expect(verify.exitCode).toBe(1);
  const report = verifyReportSchema.parse(verify.json());
  const unrecorded = report.problems.filter((problem) => problem.kind === "unrecorded-head");
  expect(unrecorded.map((problem) => problem.address).sort()).toEqual(Object.values(lostHeads).sort());
  expect(report.abandoned).toEqual([{ address: abandoned, thread: original, reason: "superseded" }]);
  expect(unrecorded.find((problem) => problem.address === lostHeads.original)).toMatchObject({
    thread: original,
    steps: 4,
    unrecorded: 2,
  });
  expect(unrecorded.find((problem) => problem.address === lostHeads.ofNewHead)).toMatchObject({
    thread: ofNewHead,
    steps: 6,
    unrecorded: 4,
  });
  const human = await uwf.uwf(["cas", "verify"]);
  expect(human.stdout).toContain(`is 2 step(s) past its recorded head`);
  expect(human.stdout).toContain("recover cannot rebuild what only the lost records held");

  for (const args of [
    ["cas", "gc", "--grace", "0"],
    ["cas", "gc", "--dry-run"],
  ]) {
    const gc = await uwf.uwf(args);
    expect({ args, exitCode: gc.exitCode }).toEqual({ args, exitCode: 1 });
    expect(gc.stderr).toContain("3 thread head(s) that no thread record holds would be deleted");
    expect(gc.stderr).toContain("`uwf cas recover`");
    expect(gc.stderr).toContain("--force");
  }
  expect(await store.objects()).toEqual(objects);

  const recover = await uwf.uwf(["cas", "recover", "--json"]);
  expect({ exitCode: recover.exitCode, stderr: recover.stderr }).toEqual({ exitCode: 0, stderr: "" });
  const recovered = casRecoverResultSchema.parse(recover.json());
  expect(recovered.extended).toEqual([
    { thread: original, from: second as string, head: lostHeads.original, steps: 4 },
  ]);
  expect(recovered.recovered.map((thread) => [thread.thread, thread.forkedFrom]).sort()).toEqual(
    [
      [ofNewHead, original],
      [ofOldNode, original],
    ].sort(),
  );
  expect(recovered.notRebuilt.length).toBeGreaterThan(0);

  // Record by record, what was lost is back.
  const after = await uwf.records();
  expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  expect(after.get(original)).toEqual(before.get(original));
  for (const fork of [ofNewHead, ofOldNode]) {
    expect(after.get(fork)?.recoveredFrom).toBe(before.get(fork)?.head);
    expect(comparable(after.get(fork))).toEqual(comparable(before.get(fork)));
    expectCreatedTogether(after.get(fork), before.get(fork));
  }
  expect(start).toBe(before.get(ofOldNode)?.start);

  const verified = await uwf.uwf(["cas", "verify"]);
  expect(verified.exitCode).toBe(0);
  expect(verified.stdout).toContain(
    "1 step(s) their threads went on without, deleted, or left by a crashed step, which gc deletes",
  );
  // gc takes the abandoned step (its output, body and run are the original step's, which it keeps).
  const gc = await uwf.uwf(["cas", "gc", "--grace", "0", "--json"]);
  expect(gc.exitCode).toBe(0);
  expect(gcReportSchema.parse(gc.json()).deleted).toEqual([abandoned]);
  expect(await store.objects()).toEqual(objects.filter((address) => !address.includes(abandoned.slice(2))));
  const again = casRecoverResultSchema.parse((await uwf.uwf(["cas", "recover", "--json"])).json());
  expect(again).toMatchObject({ recovered: [], extended: [], skipped: [] });
}

describe("a ref store restored from an older copy", () => {
  it("on files and SQLite: verify reports the newer heads, gc refuses, and recover brings every thread back", async () => {
    await restoreThenGc(fileStore());
  }, 180_000);

  it("on PostgreSQL: verify reports the newer heads, gc refuses, and recover brings every thread back", async () => {
    await restoreThenGc(await postgresStore());
  }, 180_000);
});

describe("a ref store lost whole", () => {
  it("recover brings back a family of 9 threads (forks of heads and of inner steps, a counterfactual, budgets) record for record", async () => {
    const store = fileStore();
    const uwf = commands(store);
    const a = await uwf.start("Draft the announcement");
    await uwf.step(a, 4);
    const aChain = await uwf.chain(a);
    const b = await uwf.fork(aChain[2] as string); // a fork of an inner step
    await uwf.step(b, 2);
    const c = await uwf.fork(aChain[4] as string); // a fork of a's head: a's head is now inside c's chain
    await uwf.step(c, 2);
    const d = await uwf.fork(aChain[4] as string); // another fork of that head
    await uwf.step(d, 1);
    // A counterfactual: a's third step (the writer's) with another reply.
    const e = await uwf.fork(aChain[3] as string, "---\nsummary: a shorter draft\n---\nShorter.\n");
    await uwf.step(e, 1);
    const f = await uwf.fork((await uwf.chain(b)).at(-1) as string); // a fork of a fork's head
    await uwf.step(f, 1);
    const g = await uwf.fork(aChain[0] as string); // a fork of the start node
    await uwf.step(g, 1);
    const h = await uwf.start("Draft the changelog");
    await uwf.step(h, 2);
    const i = await uwf.fork((await uwf.chain(h))[1] as string);
    await uwf.step(i, 1);
    const before = await uwf.records();
    expect(before.size).toBe(9);
    expect(before.get(a)?.budget).toMatchObject({ maxSteps: 12 });
    expect(before.get(e)?.forkedFrom).toMatchObject({ thread: a, step: 3, address: aChain[3], replaced: true });

    await store.ageObjects();
    await store.loseRefs();
    expect((await uwf.records()).size).toBe(0);
    const verify = verifyReportSchema.parse((await uwf.uwf(["cas", "verify", "--json"])).json());
    const heads = verify.problems.filter((problem) => problem.kind === "unrecorded-head");
    expect(heads.map((problem) => problem.address).sort()).toEqual(
      [...before.values()].map((thread) => thread.head).sort(),
    );
    expect((await uwf.uwf(["cas", "gc", "--grace", "0"])).exitCode).toBe(1);

    const recover = await uwf.uwf(["cas", "recover", "--json"]);
    expect({ exitCode: recover.exitCode, stderr: recover.stderr }).toEqual({ exitCode: 0, stderr: "" });
    const recovered = casRecoverResultSchema.parse(recover.json());
    expect(recovered.recovered).toHaveLength(9);
    const human = await uwf.uwf(["cas", "recover"]);
    expect(human.stdout).toContain("0 thread(s) recovered");

    const after = await uwf.records();
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [id, record] of before) {
      expect({ id, record: comparable(after.get(id)) }).toEqual({ id, record: comparable(record) });
      expectCreatedTogether(after.get(id), record);
      expect(after.get(id)?.recoveredFrom).toBe(record.head);
    }
    const tree = await uwf.uwf(["tree", a, "--json"]);
    expect(tree.exitCode).toBe(0);
    expect((await uwf.uwf(["cas", "verify"])).exitCode).toBe(0);
    // The budget is back: a's limit holds.
    expect(after.get(c)?.budget).toMatchObject({ maxSteps: 12 });
  }, 300_000);
});

/** `uwf delete THREAD` on a pseudo-terminal (`script`), answering its question with `key` once it is asked. */
async function deleteOnTerminal(thread: string, key: string): Promise<{ exitCode: number; output: string }> {
  // A pseudo-terminal starts with no size: give it one, or every character is a line of its own.
  const terminal = startOnTerminal(temp, ["delete", thread], {
    env: { HOME: join(temp.home, ".."), NO_COLOR: "1" },
    columns: 200,
    rows: 30,
    interactive: true,
  });
  await terminal.waitForOutput(/Delete 1 thread\(s\)/);
  terminal.type(key);
  terminal.type("\r");
  return terminal.finished;
}

describe("uwf delete", () => {
  it("asks on a terminal, deleting only on yes", async () => {
    const uwf = commands(fileStore());
    const thread = await uwf.start("Ask me first");
    const declined = await deleteOnTerminal(thread, "n");
    expect(declined.output).toContain("nothing deleted");
    expect(declined.exitCode).toBe(1);
    expect((await uwf.records()).has(thread)).toBe(true);
    const accepted = await deleteOnTerminal(thread, "y");
    expect(accepted.output).toContain(`deleted thread ${thread}`);
    expect(accepted.exitCode).toBe(0);
    expect((await uwf.records()).has(thread)).toBe(false);
  }, 60_000);

  it("removes records (--yes without a terminal), refuses a thread being stepped (75), and gc collects only what no other thread reaches", async () => {
    const store = fileStore();
    const uwf = commands(store);
    const kept = await uwf.start("Keep me");
    await uwf.step(kept, 2);
    const doomed = await uwf.fork((await uwf.chain(kept))[1] as string);
    await uwf.step(doomed, 2);
    const alone = await uwf.start("Delete me whole");
    await uwf.step(alone, 1);
    const busy = await uwf.start("Being stepped");
    const records = await uwf.records();
    const doomedChain = await uwf.chain(doomed);
    const aloneChain = await uwf.chain(alone);

    const asked = await uwf.uwf(["delete", doomed]);
    expect(asked.exitCode).toBe(2);
    expect(asked.stderr).toContain("give --yes");
    expect((await uwf.records()).has(doomed)).toBe(true);
    const missing = await uwf.uwf(["delete", doomed, "01JZZZZZZZZZZZZZZZZZZZZZZZ", "--yes"]);
    expect(missing.exitCode).toBe(1);
    expect((await uwf.records()).has(doomed)).toBe(true);

    // Another process steps `busy`: this test's, holding its lease as a live stepper would.
    const refs = createSqliteRefStore(refDatabasePath(temp.home));
    const lease = await refs.acquireLease(busy, { ttlMs: 60_000, now: new Date(), pid: process.pid, host: hostname() });
    expect(lease.acquired).toBe(true);
    let deleted = await uwf.uwf(["delete", doomed, alone, busy, "--yes", "--json"]);
    expect(deleted.exitCode).toBe(75);
    if (lease.acquired) await refs.releaseLease(lease.lease);
    await refs.close();
    const result = deleteResultSchema.parse(deleted.json());
    expect(result.deleted).toEqual([
      { thread: doomed, head: records.get(doomed)?.head as string },
      { thread: alone, head: records.get(alone)?.head as string },
    ]);
    expect(result.busy).toMatchObject([{ thread: busy }]);
    expect(result.busy[0]?.message).toContain(`thread ${busy} is busy`);
    expect([...(await uwf.records()).keys()].sort()).toEqual([kept, busy].sort());

    await store.ageObjects();
    const verify = verifyReportSchema.parse((await uwf.uwf(["cas", "verify", "--json"])).json());
    expect(verify.problems).toEqual([]);
    expect(verify.abandoned).toEqual([
      { address: records.get(doomed)?.head as string, thread: doomed, reason: "deleted" },
      { address: records.get(alone)?.head as string, thread: alone, reason: "deleted" },
    ]);
    const gc = await uwf.uwf(["cas", "gc", "--grace", "0", "--json"]);
    expect(gc.stderr).toBe("");
    expect(gc.exitCode).toBe(0);
    const collected = gcReportSchema.parse(gc.json()).deleted;
    // The deleted fork's own steps go, the step it shared with `kept` stays; `alone` goes whole.
    for (const address of [...doomedChain.slice(2), ...aloneChain]) expect(collected).toContain(address);
    for (const address of await uwf.chain(kept)) expect(collected).not.toContain(address);
    const recover = casRecoverResultSchema.parse((await uwf.uwf(["cas", "recover", "--json"])).json());
    expect(recover).toMatchObject({ recovered: [], extended: [] });
    deleted = await uwf.uwf(["delete", doomed, "--yes"]);
    expect(deleted.exitCode).toBe(1);
  }, 180_000);
});
