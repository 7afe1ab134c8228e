import { describe, expect, it } from "bun:test";
import { tickResultSchema } from "@uwf/protocol";
import { compositionFixture, STORES, useCompositionStores } from "./composition-kit.ts";

/**
 * A schedule whose workflow fans out: `uwf schedule trigger` fires it and runs its thread here, branches
 * and join included, as `uwf run` does — on the embedded store and on PostgreSQL.
 */
const storeOf = useCompositionStores();
const FAN_OUT = compositionFixture("fan-out");

describe.each(STORES)("schedule × fan-out (%s store)", (kind) => {
  it("a triggered schedule's thread runs its branches and join to the end", async () => {
    const store = storeOf(kind);
    expect((await store.uwf(["workflow", "add", FAN_OUT.workflow])).exitCode).toBe(0);
    const add = ["schedule", "add", "nightly", "fan-out", "--cron", "0 3 * * *", "-p", "Cache it"];
    expect((await store.uwf(add)).exitCode).toBe(0);
    const tick = tickResultSchema.parse(await store.json(["schedule", "trigger", "nightly", "--agent", FAN_OUT.agent]));
    const fired = tick.fired[0];
    expect(fired?.schedule).toBe("nightly");
    const thread = fired?.thread ?? "";
    expect(tick.ran).toEqual([{ thread, status: "ended", steps: 2 }]);
    const threads = await store.list();
    expect(threads).toHaveLength(3);
    expect(threads.every((each) => each.status === "ended")).toBe(true);
    expect(threads.find((each) => each.id === thread)).toMatchObject({ scheduledBy: { schedule: "nightly" } });
    await store.expectCounts(thread, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 2 });
    await store.expectVerifies();
  });
});
