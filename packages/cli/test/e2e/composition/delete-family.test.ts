import { describe, expect, it } from "bun:test";
import { deleteResultSchema, stepResultSchema } from "@uwf/protocol";
import {
  compositionFixture,
  expectStoreVerifies,
  listAll,
  STORES,
  useStoreEnv,
  uwfJson,
} from "../../helpers/composition.ts";
import { useTempHome } from "../../helpers/temp-home.ts";

/**
 * `uwf delete` of a fan-out's parent takes its branch threads with it (nested fan-outs' too), so no
 * branch is left naming a parent that is gone, and gc then leaves a store that verifies whole — on the
 * embedded store and on PostgreSQL.
 */
const temp = useTempHome();
const storeEnv = useStoreEnv();

describe.each(STORES)("delete × family (%s store)", (kind) => {
  it("deletes a parent with its nested branches, deepest first, keeps an unrelated thread, and gc leaves a whole store", async () => {
    const env = storeEnv(kind);
    const inner = compositionFixture("fan-out");
    const nested = compositionFixture("nested");
    expect((await temp.uwf(["workflow", "add", inner.workflow], { env })).exitCode).toBe(0);
    const parent = stepResultSchema.parse(
      await uwfJson(temp, ["run", nested.workflow, "-p", "Cache it", "--agent", nested.agent], env),
    ).thread;
    const other = stepResultSchema.parse(
      await uwfJson(temp, ["run", inner.workflow, "-p", "Keep me", "--agent", inner.agent], env),
    ).thread;
    const before = await listAll(temp, env);
    expect(before).toHaveLength(8);

    const result = deleteResultSchema.parse(await uwfJson(temp, ["delete", parent, "--yes"], env));
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

    const left = await listAll(temp, env);
    expect(left.map((thread) => thread.id).sort()).toEqual(
      before
        .filter((thread) => thread.id === other || thread.branchOf?.thread === other)
        .map((thread) => thread.id)
        .sort(),
    );
    expect(left.every((thread) => thread.branchOf === undefined || thread.branchOf.thread === other)).toBe(true);
    expect((await temp.uwf(["cas", "gc", "--grace", "0"], { env })).exitCode).toBe(0);
    await expectStoreVerifies(temp, env);
    expect((await temp.uwf(["show", other], { env })).exitCode).toBe(0);
  });
});
