import { describe, expect, it } from "bun:test";
import { startResultSchema } from "@uwf/protocol";
import {
  compositionFixture,
  expectCounts,
  expectStoreVerifies,
  listAll,
  STORES,
  useStoreEnv,
  uwfJson,
} from "../../helpers/composition.ts";
import { useTempHome } from "../../helpers/temp-home.ts";

/**
 * A queued fan-out run by `uwf worker --once`: the worker steps the parent, its branches and its join,
 * and `uwf wait` sees it end — on the embedded store and on PostgreSQL.
 */
const temp = useTempHome();
const storeEnv = useStoreEnv();
const FAN_OUT = compositionFixture("fan-out");

describe.each(STORES)("worker × fan-out (%s store)", (kind) => {
  it("runs a queued fan-out's branches and join to the end, counted as uwf run's are", async () => {
    const env = storeEnv(kind);
    const started = startResultSchema.parse(
      await uwfJson(temp, ["run", FAN_OUT.workflow, "-p", "Cache it", "--queue"], env),
    );
    const worker = await temp.uwf(["worker", "--once", "--agent", FAN_OUT.agent], { env });
    expect(worker.exitCode).toBe(0);
    const waited = await temp.uwf(["wait", started.thread], { env });
    expect(waited.exitCode).toBe(0);
    const threads = await listAll(temp, env);
    expect(threads).toHaveLength(3);
    expect(threads.every((thread) => thread.status === "ended")).toBe(true);
    const parent = threads.find((thread) => thread.id === started.thread);
    expect(parent?.outcome).toMatchObject({ role: "merger", status: "shipped" });
    await expectCounts(temp, started.thread, env, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 2 });
    await expectStoreVerifies(temp, env);
  });
});
