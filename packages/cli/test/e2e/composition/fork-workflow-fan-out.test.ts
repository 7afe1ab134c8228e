import { describe, expect, it } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { logResultSchema, stepResultSchema } from "@uwf/protocol";
import { compositionFixture, STORES, useCompositionStores } from "./composition-kit.ts";

/**
 * `uwf fork STEP --workflow V2` at a step that fanned out: the fork makes its own branches under the new
 * version, runs them and its join, and is counted by the one rule — on the embedded store and on PostgreSQL.
 */
const storeOf = useCompositionStores();
const FAN_OUT = compositionFixture("fan-out");

describe.each(STORES)("fork --workflow × fan-out (%s store)", (kind) => {
  it("continues a fan-out step on a new workflow version, with branches of its own, to its end", async () => {
    const store = storeOf(kind);
    const run = await store.run(FAN_OUT, "Cache it");
    const fannedOut = logResultSchema.parse(await store.json(["log", run.thread])).steps[0]?.address ?? "";
    const v2 = join(store.temp.work, "fan-out.yaml");
    writeFileSync(v2, readFileSync(FAN_OUT.workflow, "utf8").replace("Speed {{", "Fast {{"));
    const fork = await store.json<{ thread: string }>(["fork", fannedOut, "--workflow", v2]);
    const stepped = stepResultSchema.parse(await store.json(["step", fork.thread, "--all", "--agent", FAN_OUT.agent]));
    expect(stepped).toMatchObject({ status: "ended", outcome: { role: "merger", status: "shipped" } });
    const threads = await store.list();
    const forkBranches = threads.filter((thread) => thread.branchOf?.thread === fork.thread);
    expect(forkBranches.map((thread) => thread.branchOf?.branch).sort()).toEqual(["speed", "style"]);
    expect(forkBranches.every((thread) => thread.status === "ended")).toBe(true);
    expect(threads.find((thread) => thread.id === fork.thread)?.workflowAddress).not.toBe(
      threads.find((thread) => thread.id === run.thread)?.workflowAddress,
    );
    // Its planner step inherited, its join taken; its own two branches one step each.
    await store.expectCounts(fork.thread, { steps: 2, inherited: 1, replaced: 0, taken: 1, branchSteps: 2 });
    await store.expectCounts(run.thread, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 2 });
    await store.expectVerifies();
  });
});
