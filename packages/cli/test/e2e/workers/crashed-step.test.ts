import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { casRecoverResultSchema, gcReportSchema, startResultSchema, verifyReportSchema } from "@uwf/protocol";
import { newPostgresSchema } from "../../helpers/postgres-schema.ts";
import { createTempHome, FIXTURES, fixtureAgentsConfig, type TempHome } from "../../helpers/temp-home.ts";

const HOUR = 60 * 60 * 1000;
const LONG_REVIEW = join(FIXTURES, "workflows/long-review.yaml");

let temp: TempHome;
beforeEach(() => {
  temp = createTempHome();
  temp.writeConfig(fixtureAgentsConfig(["review-forever", "always-invalid"]).join("\n"));
});
afterEach(() => temp.cleanup());

/** The store a test runs against: its environment, and how it makes every object look two hours old. */
interface StoreUnderTest {
  env: Record<string, string>;
  ageObjects(): Promise<void>;
  hasObject(address: string): Promise<boolean>;
}

function fileStore(): StoreUnderTest {
  const root = () => join(temp.home, "objects");
  return {
    env: {},
    async ageObjects() {
      const old = new Date(Date.now() - 2 * HOUR);
      for (const shard of readdirSync(root())) {
        for (const name of readdirSync(join(root(), shard))) utimesSync(join(root(), shard, name), old, old);
      }
    },
    async hasObject(address) {
      return readdirSync(root()).some(
        (shard) =>
          shard === address.slice(0, 2) && readdirSync(join(root(), shard)).includes(`${address.slice(2)}.json`),
      );
    },
  };
}

async function postgresStore(): Promise<StoreUnderTest> {
  const { url, schema, run } = await newPostgresSchema();
  return {
    env: { UWF_STORE: url },
    async ageObjects() {
      await run(`UPDATE ${schema}.objects SET written_at = written_at - ${2 * HOUR}`);
    },
    async hasObject(address) {
      return (await run(`SELECT 1 FROM ${schema}.objects WHERE address = '${address}'`)).length === 1;
    },
  };
}

async function crashBetweenNodesAndHead(store: StoreUnderTest): Promise<void> {
  const uwf = (args: string[], env: Record<string, string> = {}) => temp.uwf(args, { env: { ...store.env, ...env } });
  const started = await uwf(["start", LONG_REVIEW, "-p", "Write the notes", "--json"]);
  expect(started.exitCode).toBe(0);
  const thread = startResultSchema.parse(started.json()).thread;
  expect((await uwf(["step", thread, "--agent", "review-forever"])).exitCode).toBe(0);
  const before = JSON.parse((await uwf(["show", thread, "--json"])).stdout) as { head: string; stepCount: number };

  // Killed (SIGKILL, as the OOM killer does) right after the step's nodes are written, before its head moves.
  const crashed = await uwf(["step", thread, "--agent", "review-forever"], { UWF_CRASH_AT: "after-step-nodes" });
  expect(crashed.exitCode).not.toBe(0);
  expect(JSON.parse((await uwf(["show", thread, "--json"])).stdout)).toMatchObject(before);

  // verify tells the crashed step's node from a restored ref store's newer head, and settles it alone.
  const verify = await uwf(["cas", "verify", "--json"]);
  expect(verify.stderr).toBe("");
  expect(verify.exitCode).toBe(0);
  const report = verifyReportSchema.parse(verify.json());
  expect(report.problems).toEqual([]);
  expect(report.abandoned).toEqual([{ address: expect.any(String), thread, reason: "crashed" }]);
  const leftover = report.abandoned[0]?.address as string;
  const human = await uwf(["cas", "verify"]);
  expect(human.exitCode).toBe(0);
  expect(human.stdout).toContain(`settled: step ${leftover} of thread ${thread} was written by a step that died`);
  // recover is for real restores: it leaves the thread where it is.
  const recover = await uwf(["cas", "recover", "--json"]);
  expect(recover.exitCode).toBe(0);
  expect(casRecoverResultSchema.parse(recover.json())).toMatchObject({ recovered: [], extended: [] });
  expect(JSON.parse((await uwf(["show", thread, "--json"])).stdout)).toMatchObject(before);

  // The next step fails (its reply stays invalid) and lets go of the lease: the leftover stays settled.
  expect((await uwf(["step", thread, "--agent", "always-invalid"])).exitCode).toBe(1);
  const afterFailure = verifyReportSchema.parse((await uwf(["cas", "verify", "--json"])).json());
  expect(afterFailure).toMatchObject({ ok: true, problems: [] });
  expect(afterFailure.abandoned).toEqual([{ address: leftover, thread, reason: "crashed" }]);

  // gc runs, and collects the leftover once it is older than its grace.
  await store.ageObjects();
  const gc = await uwf(["cas", "gc", "--json"]);
  expect(gc.stderr).toBe("");
  expect(gc.exitCode).toBe(0);
  expect(gcReportSchema.parse(gc.json()).deleted).toContain(leftover);
  expect(await store.hasObject(leftover)).toBe(false);
  expect((await uwf(["cas", "verify"])).exitCode).toBe(0);

  // The thread goes on from its recorded head, numbering its steps as before.
  const next = await uwf(["step", thread, "--agent", "review-forever", "--json"]);
  expect(next.exitCode).toBe(0);
  expect(JSON.parse((await uwf(["show", thread, "--json"])).stdout)).toMatchObject({
    stepCount: before.stepCount + 1,
  });
  const last = await uwf(["cas", "verify", "--json"]);
  expect(last.exitCode).toBe(0);
  expect(verifyReportSchema.parse(last.json()).abandoned).toEqual([]);
}

describe("a step killed between writing its nodes and moving its head", () => {
  it("on files and SQLite: verify settles its leftovers alone, gc runs, and the thread goes on", async () => {
    await crashBetweenNodesAndHead(fileStore());
  }, 120_000);

  it("on PostgreSQL: verify settles its leftovers alone, gc runs, and the thread goes on", async () => {
    await crashBetweenNodesAndHead(await postgresStore());
  }, 180_000);
});
