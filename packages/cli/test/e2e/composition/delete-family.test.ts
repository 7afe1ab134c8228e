import { describe, expect, it } from "bun:test";
import { deleteResultSchema } from "@uwf/protocol";
import { compositionFixture, STORES, useCompositionStores } from "./composition-kit.ts";

/**
 * `uwf delete` of a fan-out's parent takes its branch threads with it (nested fan-outs' too), so no
 * branch is left naming a parent that is gone, and gc then leaves a store that verifies whole — on the
 * embedded store and on PostgreSQL.
 */
const storeOf = useCompositionStores();

describe.each(STORES)("delete × family (%s store)", (kind) => {
  it("deletes a parent with its nested branches, deepest first, keeps an unrelated thread, and gc leaves a whole store", async () => {
    const store = storeOf(kind);
    const inner = compositionFixture("fan-out");
    const nested = compositionFixture("nested");
    expect((await store.uwf(["workflow", "add", inner.workflow])).exitCode).toBe(0);
    const parent = (await store.run(nested, "Cache it")).thread;
    const other = (await store.run(inner, "Keep me")).thread;
    const before = await store.list();
    expect(before).toHaveLength(8);

    const result = deleteResultSchema.parse(await store.json(["delete", parent, "--yes"]));
    expect(result.busy).toEqual([]);
    const deleted = result.deleted.map((entry) => entry.thread);
    expect(deleted).toHaveLength(5);
    // The parent last, after its branches; a nested branch before the branch it belongs to.
    expect(deleted.at(-1)).toBe(parent);
    const review = before.find((thread) => thread.branchOf?.thread === parent && thread.branchOf.branch === "review");
    const speed = before.find(
      (thread) => thread.branchOf?.thread === review?.id && thread.branchOf?.branch === "speed",
    );
    expect(deleted.indexOf(speed?.id ?? "")).toBeLessThan(deleted.indexOf(review?.id ?? ""));

    const left = await store.list();
    expect(left.map((thread) => thread.id).sort()).toEqual(
      before
        .filter((thread) => thread.id === other || thread.branchOf?.thread === other)
        .map((thread) => thread.id)
        .sort(),
    );
    expect(left.every((thread) => thread.branchOf === undefined || thread.branchOf.thread === other)).toBe(true);
    expect((await store.uwf(["cas", "gc", "--grace", "0"])).exitCode).toBe(0);
    await store.expectVerifies();
    expect((await store.uwf(["show", other])).exitCode).toBe(0);
  });
});
