import { describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compareResultSchema, evalResultSchema, forksResultSchema, stepResultSchema } from "@uwf/protocol";
import { compositionFixture, STORES, useCompositionStores } from "./composition-kit.ts";

/**
 * Forks of a branch's step (a counterfactual reply and plain forks), counted by the one rule, and
 * `uwf eval --forks-of BRANCH` over them — on the embedded store and on PostgreSQL.
 */
const storeOf = useCompositionStores();
const FAN_OUT = compositionFixture("fan-out");

describe.each(STORES)("fork × branch, eval × forks of a branch (%s store)", (kind) => {
  it("forks a branch's step, counts each fork's inherited, replaced and taken steps, and scores the forks", async () => {
    const store = storeOf(kind);
    const run = await store.run(FAN_OUT, "Cache it");
    const speed = (await store.list()).find((thread) => thread.branchOf?.branch === "speed");
    if (speed === undefined) throw new Error("no speed branch");
    const reply = join(store.temp.work, "reject.md");
    writeFileSync(reply, "---\nverdict: reject\n---\nToo slow.\n");
    const counterfactual = await store.json<{ thread: string }>(["fork", speed.head, "--output", reply]);
    const plain = forksResultSchema.parse(await store.json(["fork", speed.head, "--count", "2"])).forks;
    expect(plain).toHaveLength(2);

    // The branch: its parent's planner step inherited, its reviewer step taken.
    await store.expectCounts(speed.id, { steps: 2, inherited: 1, replaced: 0, taken: 1, branchSteps: 0 });
    // The counterfactual: the same two numbered steps, the second its replaced reply, which no agent ran.
    const replaced = await store.show(counterfactual.thread);
    expect(replaced).toMatchObject({ status: "ended", forkedFrom: { replaced: true }, branchOf: { branch: "speed" } });
    await store.expectCounts(counterfactual.thread, {
      steps: 2,
      inherited: 1,
      replaced: 1,
      taken: 0,
      branchSteps: 0,
    });
    // A plain fork at the branch's head inherits both steps and took none.
    await store.expectCounts(plain[0]?.thread ?? "", {
      steps: 2,
      inherited: 2,
      replaced: 0,
      taken: 0,
      branchSteps: 0,
    });
    // The original parent still counts its own branches only: 2 steps taken + 1 + 1.
    await store.expectCounts(run.thread, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 2 });

    const evaluated = evalResultSchema.parse(
      await store.json(["eval", "--forks-of", speed.id, "--assert", 'steps[-1].output.verdict = "approve"']),
    );
    expect(evaluated.samples).toHaveLength(3);
    expect(evaluated.summary.variants[0]).toMatchObject({ samples: 3, passed: 2, failed: 1 });
    const failed = evaluated.samples.find((sample) => sample.verdict === "failed");
    expect(failed?.thread).toBe(counterfactual.thread);
    // `compare` finds the branch's forks as `eval --forks-of` does (it once found none: they sat under the parent).
    const compared = compareResultSchema.parse(await store.json(["compare", speed.id]));
    expect(compared.rows[0]?.thread).toBe(speed.id);
    expect(
      compared.rows
        .slice(1)
        .map((row) => row.thread)
        .sort(),
    ).toEqual(evaluated.samples.map((sample) => sample.thread).sort());
    expect(compared.rows.slice(1).every((row) => row.parent === speed.id)).toBe(true);

    // A fork of a branch forks its parent too, in the branch's place: with both branches ended, that
    // parent is ready for its join at once (it once stayed waiting), and joins to its end.
    const parentFork = replaced.branchOf?.thread as string;
    expect(parentFork).not.toBe(run.thread);
    expect(await store.show(parentFork)).toMatchObject({ status: "active", next: "merger" });
    const joined = stepResultSchema.parse(await store.json(["step", parentFork, "--all", "--agent", FAN_OUT.agent]));
    expect(joined).toMatchObject({ status: "ended", outcome: { role: "merger" } });
    expect((await store.show(run.thread)).status).toBe("ended");
    await store.expectVerifies();
  });
});
