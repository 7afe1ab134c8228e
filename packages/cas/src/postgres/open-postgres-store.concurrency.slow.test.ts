import { describe, expect, it } from "bun:test";
import { expectOneBranchPerKey, raceBranchCreation } from "../testing/race-branch-creation.ts";
import { raceHeadAdvances } from "../testing/race-head-advances.ts";
import { startTestPostgres } from "../testing/start-test-postgres.ts";
import { openPostgresStore } from "./open-postgres-store.ts";

describe("the PostgreSQL store under contention", () => {
  it("keeps every successful head advance of 8 processes racing 200 times each, and reports the rest as conflicts", async () => {
    const url = (await startTestPostgres()).newStoreUrl();
    const store = await openPostgresStore(url);
    const race = await raceHeadAdvances(store, url, { workers: 8, attempts: 200 });
    expect(race.successes + race.conflicts).toBe(8 * 200);
    expect(race.conflicts).toBeGreaterThan(0);
    // Every success is one link of the final chain: none was overwritten by a racing writer.
    expect(race.stepCount).toBe(race.successes);
    expect(race.chainLength).toBe(race.successes);
    await store.close();
  }, 60_000);

  it("makes one link per key, and only its record, when 6 processes make the same branches at once", async () => {
    const url = (await startTestPostgres()).newStoreUrl();
    const store = await openPostgresStore(url);
    const shape = { steps: 20, keys: 8 };
    const race = await raceBranchCreation(store, url, { workers: 6, ...shape });
    await expectOneBranchPerKey(store, race, shape);
    await store.close();
  }, 60_000);
});
