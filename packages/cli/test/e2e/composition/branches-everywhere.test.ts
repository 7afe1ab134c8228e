import { describe, expect, it } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { replayResultSchema, stepBatchResultSchema, stepResultSchema } from "@uwf/protocol";
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
 * Branches go wherever a thread goes: a branch's suspension answered from an exported scenario, the batch
 * table's `waiting` parent, nested fan-outs (a `workflow:` branch that fans out) run, counted and replayed
 * branch by branch — on the embedded store and on PostgreSQL.
 */
const temp = useTempHome();
const storeEnv = useStoreEnv();
const ASK = compositionFixture("review-ask");

/** review-ask's scenario without the person's recorded answer: the gate branch stops at its question. */
function unansweredScenario(): string {
  const file = join(temp.work, "unanswered.scenario.yaml");
  const lines = readFileSync(ASK.scenario, "utf8").split("\n");
  writeFileSync(file, lines.filter((line) => !line.includes("answer:")).join("\n"));
  return `scripted:${file}`;
}

function branchOf(threads: Awaited<ReturnType<typeof listAll>>, parent: string, key: string) {
  const found = threads.find((thread) => thread.branchOf?.thread === parent && thread.branchOf.branch === key);
  if (found === undefined) throw new Error(`no branch ${key} of ${parent}`);
  return found;
}

describe.each(STORES)("branches everywhere (%s store)", (kind) => {
  it("a thread whose branch was answered by hand, exported as a scenario, runs again to its end answering the branch", async () => {
    const env = storeEnv(kind);
    const agent = unansweredScenario();
    const first = await temp.uwf(["run", ASK.workflow, "-p", "Ship the cache", "--agent", agent, "--json"], { env });
    expect(first.exitCode).toBe(20);
    const parent = stepResultSchema.parse(first.json()).thread;
    const gate = branchOf(await listAll(temp, env), parent, "gate");
    expect(gate.status).toBe("suspended");
    await uwfJson(
      temp,
      ["resume", gate.id, "--answer", '{"approved": true, "comment": "go ahead"}', "--agent", agent],
      env,
    );
    const ended = stepResultSchema.parse(await uwfJson(temp, ["step", parent, "--all", "--agent", agent], env));
    expect(ended).toMatchObject({ status: "ended", outcome: { role: "merger", status: "shipped" } });

    const exported = join(temp.work, "exported.scenario.yaml");
    expect((await temp.uwf(["scenario", "export", parent, "-o", exported], { env })).exitCode).toBe(0);
    expect(readFileSync(exported, "utf8")).toContain("approved: true");
    const again = await temp.uwf(
      ["run", ASK.workflow, "-p", "Ship the cache", "--agent", `scripted:${exported}`, "--json"],
      {
        env,
      },
    );
    expect(again.exitCode).toBe(0);
    const replayed = stepResultSchema.parse(again.json());
    expect(replayed).toMatchObject({ status: "ended", outcome: { role: "merger", status: "shipped" } });
    const replayedGate = branchOf(await listAll(temp, env), replayed.thread, "gate");
    expect(replayedGate).toMatchObject({ status: "ended", stepCount: 3 });
    // The parent took 2 steps; its branches 1 (check) and 2 (gate: the question and the answered step).
    await expectCounts(temp, replayed.thread, env, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 3 });
    await expectCounts(temp, replayedGate.id, env, { steps: 3, inherited: 1, replaced: 0, taken: 2, branchSteps: 0 });
    await expectStoreVerifies(temp, env);
  });

  it("the batch table shows a parent whose branch waits for an answer as waiting", async () => {
    const env = storeEnv(kind);
    const agent = unansweredScenario();
    const start = async (prompt: string) =>
      (await uwfJson<{ thread: string }>(temp, ["start", ASK.workflow, "-p", prompt], env)).thread;
    const threads = [await start("one"), await start("two")];
    const args = ["step", ...threads, "--all", "--parallel", "2", "--agent", agent];
    const batch = stepBatchResultSchema.parse(await uwfJson(temp, args, env));
    expect(batch.threads.map((thread) => thread.outcome)).toEqual(["waiting", "waiting"]);
    expect(batch.threads.map((thread) => thread.status)).toEqual(["waiting", "waiting"]);
    const table = await temp.uwf(args, { env });
    expect(table.stdout).toMatch(/waiting/);
    expect(table.stdout).not.toMatch(/\bactive\b/);
    await expectStoreVerifies(temp, env);
  });

  it("nested fan-outs: a workflow branch that fans out runs to its end, is counted at every level and replays", async () => {
    const env = storeEnv(kind);
    const inner = compositionFixture("fan-out");
    const nested = compositionFixture("nested");
    expect((await temp.uwf(["workflow", "add", inner.workflow], { env })).exitCode).toBe(0);
    const run = await temp.uwf(["run", nested.workflow, "-p", "Cache it", "--agent", nested.agent, "--json"], { env });
    expect(run.stderr).not.toContain("error");
    expect(run.exitCode).toBe(0);
    const parent = stepResultSchema.parse(run.json());
    expect(parent).toMatchObject({ status: "ended", outcome: { role: "editor", status: "merged" } });
    const threads = await listAll(temp, env);
    expect(threads).toHaveLength(5);
    expect(threads.every((thread) => thread.status === "ended")).toBe(true);
    const review = branchOf(threads, parent.thread, "review");
    expect(review.outcome).toMatchObject({ role: "merger", status: "shipped" });
    const speed = branchOf(threads, review.id, "speed");
    // The parent: 2 own steps; its branches: review 2 (+ speed 1, style 1 nested), check 1.
    await expectCounts(temp, parent.thread, env, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 5 });
    await expectCounts(temp, review.id, env, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 2 });
    await expectCounts(temp, speed.id, env, { steps: 2, inherited: 1, replaced: 0, taken: 1, branchSteps: 0 });
    const tree = await temp.uwf(["tree", parent.thread], { env });
    expect(tree.stdout).toContain("branch speed");
    expect(tree.stdout).toContain("budget 7/100 steps");

    const replay = replayResultSchema.parse(
      await uwfJson(temp, ["replay", parent.thread, "--workflow", nested.workflow], env),
    );
    expect(replay.threads[0]).toMatchObject({ result: "identical", replayed: 2, branches: 4 });
    await expectStoreVerifies(temp, env);
  });
});
