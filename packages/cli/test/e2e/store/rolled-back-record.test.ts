import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { startTestPostgres } from "@uwf/cas/test";
import {
  casRecoverResultSchema,
  errorResultSchema,
  forkResultSchema,
  logResultSchema,
  startResultSchema,
  verifyReportSchema,
} from "@uwf/protocol";
import { SQL } from "bun";
import { createTempHome, FIXTURES, fixtureAgentsConfig, type TempHome } from "../../helpers/temp-home.ts";

const LONG_REVIEW = join(FIXTURES, "workflows/long-review.yaml");

let temp: TempHome;
beforeEach(() => {
  temp = createTempHome();
  temp.writeConfig(fixtureAgentsConfig(["review-forever"]).join("\n"));
});
afterEach(() => temp.cleanup());

/** One thread's row of the ref store: saved, and put back as a partial restore would. */
interface StoreUnderTest {
  env: Record<string, string>;
  saveRow(thread: string): Promise<void>;
  restoreRow(thread: string): Promise<void>;
}

let store: StoreUnderTest;
const uwf = (args: string[]) => temp.uwf(args, { env: store.env });

function fileStore(): StoreUnderTest {
  const refs = () => join(temp.home, "refs.db");
  const backup = () => join(temp.home, "..", "refs.backup.db");
  return {
    env: {},
    async saveRow() {
      const database = new Database(refs());
      database.run(`VACUUM INTO '${backup()}'`);
      database.close();
    },
    async restoreRow(thread) {
      const database = new Database(refs());
      database.run(`ATTACH DATABASE '${backup()}' AS backup`);
      database.run("DELETE FROM threads WHERE id = ?", [thread]);
      database.run("INSERT INTO threads SELECT * FROM backup.threads WHERE id = ?", [thread]);
      database.close();
    },
  };
}

async function postgresStore(): Promise<StoreUnderTest> {
  const url = (await startTestPostgres()).newStoreUrl();
  const schema = `"${new URL(url).searchParams.get("schema")}"`;
  const run = async (statement: string, values: unknown[] = []) => {
    const sql = new SQL(url.replace(/\?.*$/, ""), { max: 1 });
    try {
      await sql.unsafe(statement, values);
    } finally {
      await sql.close();
    }
  };
  return {
    env: { UWF_STORE: url },
    async saveRow(thread) {
      await run(`CREATE TABLE ${schema}.threads_backup AS SELECT * FROM ${schema}.threads WHERE id = $1`, [thread]);
    },
    async restoreRow(thread) {
      await run(`DELETE FROM ${schema}.threads WHERE id = $1`, [thread]);
      await run(`INSERT INTO ${schema}.threads SELECT * FROM ${schema}.threads_backup`);
    },
  };
}

async function ok(args: string[]): Promise<unknown> {
  const run = await uwf([...args, "--json"]);
  if (run.exitCode !== 0) throw new Error(`uwf ${args.join(" ")} exited ${run.exitCode}: ${run.stderr}`);
  return run.json();
}

async function shown(thread: string): Promise<{ head: string; stepCount: number }> {
  return (await ok(["show", thread])) as { head: string; stepCount: number };
}

async function stepAddresses(thread: string): Promise<string[]> {
  return logResultSchema.parse(await ok(["log", thread])).steps.map((step) => step.address);
}

async function rollBackWhileAForkHoldsLaterSteps(): Promise<void> {
  const thread = startResultSchema.parse(await ok(["start", LONG_REVIEW, "-p", "Write the notes"])).thread;
  await ok(["step", thread, "-n", "2", "--agent", "review-forever"]);
  await store.saveRow(thread);
  const atTwo = await shown(thread);

  await ok(["step", thread, "--agent", "review-forever"]);
  const [, , third] = await stepAddresses(thread);
  const fork = forkResultSchema.parse(await ok(["fork", third as string])).thread;
  await ok(["step", fork, "--agent", "review-forever"]);

  // A partial restore: this one thread's row comes back from the backup, at step 2; the fork stays.
  await store.restoreRow(thread);
  expect(await shown(thread)).toMatchObject(atTwo);

  const verify = await uwf(["cas", "verify", "--json"]);
  expect(verify.exitCode).toBe(1);
  const report = verifyReportSchema.parse(verify.json());
  expect(report.problems).toEqual([
    {
      kind: "unrecorded-head",
      address: third as string,
      thread,
      steps: 3,
      unrecorded: 0,
      message: expect.stringContaining("its next step would write a second step 3; `uwf cas recover` moves it forward"),
    },
  ]);

  // The step refuses, writing nothing, and names recover.
  const step = await uwf(["step", thread, "--agent", "review-forever"]);
  expect(step.exitCode).toBe(1);
  expect(step.stderr).toBe(
    `uwf: thread ${thread} is recorded at step 2 (${atTwo.head}), but its own steps go on to step 3 (${third}): its record was restored from an older copy; \`uwf cas recover\` moves it forward. Nothing was written\n`,
  );
  const asJson = await uwf(["step", thread, "--agent", "review-forever", "--json"]);
  expect(asJson.exitCode).toBe(1);
  expect(errorResultSchema.parse(JSON.parse(asJson.stderr)).error).toMatchObject({
    code: "thread-record-behind",
    data: { thread, head: atTwo.head, steps: 2, newerHead: third, newerSteps: 3 },
  });
  expect(await shown(thread)).toMatchObject(atTwo);

  const recover = casRecoverResultSchema.parse(await ok(["cas", "recover"]));
  expect(recover.extended).toEqual([{ thread, from: atTwo.head, head: third as string, steps: 3 }]);
  expect(recover.recovered).toEqual([]);
  const verified = await uwf(["cas", "verify"]);
  expect({ exitCode: verified.exitCode, stderr: verified.stderr }).toEqual({ exitCode: 0, stderr: "" });

  // Now it steps on from step 3, as step 4.
  await ok(["step", thread, "--agent", "review-forever"]);
  const steps = await stepAddresses(thread);
  expect(steps).toHaveLength(4);
  expect(steps[2]).toBe(third as string);
  expect((await uwf(["cas", "verify"])).exitCode).toBe(0);
}

describe("a thread's record rolled back while a fork holds its later steps", () => {
  it("on files and SQLite: fails verify, makes the thread's step refuse instead of writing a second step 3, and recover moves it forward", async () => {
    store = fileStore();
    await rollBackWhileAForkHoldsLaterSteps();
  }, 120_000);

  it("on PostgreSQL: fails verify, makes the thread's step refuse instead of writing a second step 3, and recover moves it forward", async () => {
    store = await postgresStore();
    await rollBackWhileAForkHoldsLaterSteps();
  }, 180_000);
});
