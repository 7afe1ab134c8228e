import { describe, expect, it } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { replayResultSchema, stepBatchResultSchema, stepResultSchema } from "@uwf/protocol";
import {
  branchOf,
  type CompositionStore,
  compositionFixture,
  STORES,
  useCompositionStores,
} from "./composition-kit.ts";

/**
 * Branches go wherever a thread goes: a branch's suspension answered from an exported scenario, the batch
 * table's `waiting` parent, nested fan-outs (a `workflow:` branch that fans out) run, counted and replayed
 * branch by branch — on the embedded store and on PostgreSQL.
 */
const storeOf = useCompositionStores();
const ASK = compositionFixture("review-ask");

/** review-ask's scenario without the person's recorded answer: the gate branch stops at its question. */
function unansweredScenario(store: CompositionStore): string {
  const file = join(store.temp.work, "unanswered.scenario.yaml");
  const lines = readFileSync(ASK.scenario, "utf8").split("\n");
  writeFileSync(file, lines.filter((line) => !line.includes("answer:")).join("\n"));
  return `scripted:${file}`;
}

describe.each(STORES)("branches everywhere (%s store)", (kind) => {
  it("a thread whose branch was answered by hand, exported as a scenario, runs again to its end answering the branch", async () => {
    const store = storeOf(kind);
    const agent = unansweredScenario(store);
    const first = await store.uwf(["run", ASK.workflow, "-p", "Ship the cache", "--agent", agent, "--json"]);
    expect(first.exitCode).toBe(20);
    const parent = stepResultSchema.parse(first.json()).thread;
    const gate = branchOf(await store.list(), parent, "gate");
    expect(gate.status).toBe("suspended");
    await store.json(["resume", gate.id, "--answer", '{"approved": true, "comment": "go ahead"}', "--agent", agent]);
    const ended = stepResultSchema.parse(await store.json(["step", parent, "--all", "--agent", agent]));
    expect(ended).toMatchObject({ status: "ended", outcome: { role: "merger", status: "shipped" } });

    const exported = join(store.temp.work, "exported.scenario.yaml");
    expect((await store.uwf(["scenario", "export", parent, "-o", exported])).exitCode).toBe(0);
    expect(readFileSync(exported, "utf8")).toContain("approved: true");
    const again = await store.uwf([
      "run",
      ASK.workflow,
      "-p",
      "Ship the cache",
      "--agent",
      `scripted:${exported}`,
      "--json",
    ]);
    expect(again.exitCode).toBe(0);
    const replayed = stepResultSchema.parse(again.json());
    expect(replayed).toMatchObject({ status: "ended", outcome: { role: "merger", status: "shipped" } });
    const replayedGate = branchOf(await store.list(), replayed.thread, "gate");
    expect(replayedGate).toMatchObject({ status: "ended", stepCount: 3 });
    // The parent took 2 steps; its branches 1 (check) and 2 (gate: the question and the answered step).
    await store.expectCounts(replayed.thread, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 3 });
    await store.expectCounts(replayedGate.id, { steps: 3, inherited: 1, replaced: 0, taken: 2, branchSteps: 0 });
    await store.expectVerifies();
  });

  it("the batch table shows a parent whose branch waits for an answer as waiting", async () => {
    const store = storeOf(kind);
    const agent = unansweredScenario(store);
    const start = async (prompt: string) =>
      (await store.json<{ thread: string }>(["start", ASK.workflow, "-p", prompt])).thread;
    const threads = [await start("one"), await start("two")];
    const args = ["step", ...threads, "--all", "--parallel", "2", "--agent", agent];
    const batch = stepBatchResultSchema.parse(await store.json(args));
    expect(batch.threads.map((thread) => thread.outcome)).toEqual(["waiting", "waiting"]);
    expect(batch.threads.map((thread) => thread.status)).toEqual(["waiting", "waiting"]);
    const table = await store.uwf(args);
    expect(table.stdout).toMatch(/waiting/);
    expect(table.stdout).not.toMatch(/\bactive\b/);
    await store.expectVerifies();
  });

  it("nested fan-outs: a workflow branch that fans out runs to its end, is counted at every level and replays", async () => {
    const store = storeOf(kind);
    const inner = compositionFixture("fan-out");
    const nested = compositionFixture("nested");
    expect((await store.uwf(["workflow", "add", inner.workflow])).exitCode).toBe(0);
    const run = await store.uwf(["run", nested.workflow, "-p", "Cache it", "--agent", nested.agent, "--json"]);
    expect(run.stderr).not.toContain("error");
    expect(run.exitCode).toBe(0);
    const parent = stepResultSchema.parse(run.json());
    expect(parent).toMatchObject({ status: "ended", outcome: { role: "editor", status: "merged" } });
    const threads = await store.list();
    expect(threads).toHaveLength(5);
    expect(threads.every((thread) => thread.status === "ended")).toBe(true);
    const review = branchOf(threads, parent.thread, "review");
    expect(review.outcome).toMatchObject({ role: "merger", status: "shipped" });
    const speed = branchOf(threads, review.id, "speed");
    // The parent: 2 own steps; its branches: review 2 (+ speed 1, style 1 nested), check 1.
    await store.expectCounts(parent.thread, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 5 });
    await store.expectCounts(review.id, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 2 });
    await store.expectCounts(speed.id, { steps: 2, inherited: 1, replaced: 0, taken: 1, branchSteps: 0 });
    const tree = await store.uwf(["tree", parent.thread]);
    expect(tree.stdout).toContain("branch speed");
    expect(tree.stdout).toContain("budget 7/100 steps");

    const replay = replayResultSchema.parse(await store.json(["replay", parent.thread, "--workflow", nested.workflow]));
    expect(replay.threads[0]).toMatchObject({ result: "identical", replayed: 2, branches: 4 });
    await store.expectVerifies();
  });
});
