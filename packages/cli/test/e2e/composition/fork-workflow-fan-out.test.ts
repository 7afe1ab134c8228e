import { describe, expect, it } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { logResultSchema, stepResultSchema } from "@uwf/protocol";
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
 * `uwf fork STEP --workflow V2` at a step that fanned out: the fork makes its own branches under the new
 * version, runs them and its join, and is counted by the one rule — on the embedded store and on PostgreSQL.
 */
const temp = useTempHome();
const storeEnv = useStoreEnv();
const FAN_OUT = compositionFixture("fan-out");

describe.each(STORES)("fork --workflow × fan-out (%s store)", (kind) => {
  it("continues a fan-out step on a new workflow version, with branches of its own, to its end", async () => {
    const env = storeEnv(kind);
    const run = stepResultSchema.parse(
      await uwfJson(temp, ["run", FAN_OUT.workflow, "-p", "Cache it", "--agent", FAN_OUT.agent], env),
    );
    const fannedOut = logResultSchema.parse(await uwfJson(temp, ["log", run.thread], env)).steps[0]?.address ?? "";
    const v2 = join(temp.work, "fan-out.yaml");
    writeFileSync(v2, readFileSync(FAN_OUT.workflow, "utf8").replace("Speed {{", "Fast {{"));
    const fork = await uwfJson<{ thread: string }>(temp, ["fork", fannedOut, "--workflow", v2], env);
    const stepped = stepResultSchema.parse(
      await uwfJson(temp, ["step", fork.thread, "--all", "--agent", FAN_OUT.agent], env),
    );
    expect(stepped).toMatchObject({ status: "ended", outcome: { role: "merger", status: "shipped" } });
    const threads = await listAll(temp, env);
    const forkBranches = threads.filter((thread) => thread.branchOf?.thread === fork.thread);
    expect(forkBranches.map((thread) => thread.branchOf?.branch).sort()).toEqual(["speed", "style"]);
    expect(forkBranches.every((thread) => thread.status === "ended")).toBe(true);
    expect(threads.find((thread) => thread.id === fork.thread)?.workflowAddress).not.toBe(
      threads.find((thread) => thread.id === run.thread)?.workflowAddress,
    );
    // Its planner step inherited, its join taken; its own two branches one step each.
    await expectCounts(temp, fork.thread, env, { steps: 2, inherited: 1, replaced: 0, taken: 1, branchSteps: 2 });
    await expectCounts(temp, run.thread, env, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 2 });
    await expectStoreVerifies(temp, env);
  });
});
