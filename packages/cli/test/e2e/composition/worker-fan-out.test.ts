import { describe, expect, it } from "bun:test";
import { startResultSchema } from "@uwf/protocol";
import { compositionFixture, STORES, useCompositionStores } from "./composition-kit.ts";

/**
 * A queued fan-out run by `uwf worker --once`: the worker steps the parent, its branches and its join,
 * and `uwf wait` sees it end — on the embedded store and on PostgreSQL.
 */
const storeOf = useCompositionStores();
const FAN_OUT = compositionFixture("fan-out");

describe.each(STORES)("worker × fan-out (%s store)", (kind) => {
  it("runs a queued fan-out's branches and join to the end, counted as uwf run's are", async () => {
    const store = storeOf(kind);
    const started = startResultSchema.parse(await store.json(["run", FAN_OUT.workflow, "-p", "Cache it", "--queue"]));
    const worker = await store.uwf(["worker", "--once", "--agent", FAN_OUT.agent]);
    expect(worker.exitCode).toBe(0);
    const waited = await store.uwf(["wait", started.thread]);
    expect(waited.exitCode).toBe(0);
    const threads = await store.list();
    expect(threads).toHaveLength(3);
    expect(threads.every((thread) => thread.status === "ended")).toBe(true);
    const parent = threads.find((thread) => thread.id === started.thread);
    expect(parent?.outcome).toMatchObject({ role: "merger", status: "shipped" });
    await store.expectCounts(started.thread, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 2 });
    await store.expectVerifies();
  });
});
