import { describe, expect, it } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { replayResultSchema } from "@uwf/protocol";
import { compositionFixture, STORES, useCompositionStores } from "./composition-kit.ts";

/**
 * `uwf replay` of a fan-out whose branch asked a typed question: the branches' own steps are replayed
 * (the reviewer's reply, the gate's question and recorded answer), and a change to a branch's role is
 * the thread's divergence, naming the branch — on the embedded store and on PostgreSQL.
 */
const storeOf = useCompositionStores();
const ASK = compositionFixture("review-ask");

describe.each(STORES)("replay × fan-out (%s store)", (kind) => {
  it("replays each branch's own steps, and reports a branch role's change as the thread's divergence", async () => {
    const store = storeOf(kind);
    const run = await store.run(ASK, "Ship the cache");
    expect(run.status).toBe("ended");
    const same = replayResultSchema.parse(await store.json(["replay", run.thread, "--workflow", ASK.workflow]));
    expect(same.threads[0]).toMatchObject({ result: "identical", replayed: 2, branches: 2, divergence: null });
    const text = await store.uwf(["replay", run.thread, "--workflow", ASK.workflow]);
    expect(text.stdout).toContain("identical 2 steps (and 2 branch threads)");

    // The reviewer now says accept or refuse: the check branch's recorded `approve` no longer passes.
    const changed = join(store.temp.work, "review-ask.yaml");
    writeFileSync(
      changed,
      readFileSync(ASK.workflow, "utf8").replace("enum: [approve, reject]", "enum: [accept, refuse]"),
    );
    const replayed = await store.uwf(["replay", run.thread, "--workflow", changed, "--json"]);
    expect(replayed.exitCode).toBe(1);
    const check = (await store.list()).find((thread) => thread.branchOf?.branch === "check");
    const diverged = replayResultSchema.parse(replayed.json()).threads[0];
    expect(diverged).toMatchObject({
      result: "diverged",
      divergence: { kind: "reply-refused", role: "reviewer", step: 2 },
    });
    expect(diverged?.divergence?.reason).toStartWith(`in branch check (thread ${check?.id}): `);
    // A branch named alone is replayed with its parent, and says so.
    const alone = replayResultSchema.parse(await store.json(["replay", check?.id ?? "", "--workflow", ASK.workflow]));
    expect(alone.threads[0]?.notReplayed?.reason).toContain("replayed with its parent");
    await store.expectCounts(run.thread, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 3 });
    await store.expectVerifies();
  });
});
