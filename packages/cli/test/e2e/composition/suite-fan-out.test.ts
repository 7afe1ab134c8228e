import { describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { evalResultSchema } from "@uwf/protocol";
import { EXAMPLES } from "../../helpers/temp-home.ts";
import { type CompositionStore, compositionFixture, STORES, useCompositionStores } from "./composition-kit.ts";

/**
 * `uwf eval --suite` over workflows that fan out: each sample runs its branches and its join as
 * `uwf run` does, and a branch's typed question is answered from the variant's scenario, on the
 * embedded store and on PostgreSQL.
 */
const storeOf = useCompositionStores();

function writeSuite(store: CompositionStore, name: string, workflow: string, agent: string, expected: string): string {
  const file = join(store.temp.work, `${name}.suite.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      `workflow: ${workflow}`,
      "repeat: 1",
      "cases:",
      "  - { name: one, prompt: Add rate limiting to the login endpoint }",
      "variants:",
      `  - { name: scripted, agent: "${agent}" }`,
      "assert:",
      `  - { outcome: ${expected} }`,
      "gate: { min_pass_rate: 1 }",
      "",
    ].join("\n"),
  );
  return file;
}

describe.each(STORES)("eval --suite × fan-out (%s store)", (kind) => {
  it("runs review-change's branches and join in every sample, and passes the gate", async () => {
    const store = storeOf(kind);
    const suite = writeSuite(
      store,
      "review",
      join(EXAMPLES, "review-change.yaml"),
      `scripted:${join(EXAMPLES, "review-change.scenario.yaml")}`,
      "changes-requested",
    );
    const result = evalResultSchema.parse(await store.json(["eval", "--suite", suite]));
    expect(result.summary.variants[0]).toMatchObject({ samples: 1, passed: 1, failed: 0, errored: 0 });
    for (const sample of result.samples) {
      const parent = await store.show(sample.thread);
      expect(parent).toMatchObject({ status: "ended", outcome: { role: "synthesizer", status: "changes-requested" } });
    }
    const threads = await store.list();
    // One sample: a parent and its three ended branches.
    expect(threads).toHaveLength(4);
    expect(threads.every((thread) => thread.status === "ended")).toBe(true);
    expect(threads.filter((thread) => thread.branchOf !== undefined)).toHaveLength(3);
    // eval's totals count what the budget counts: the parent's 2 steps and its 3 branches' one each.
    const sample = result.samples[0];
    await store.expectCounts(sample?.thread ?? "", {
      steps: 2,
      inherited: 0,
      replaced: 0,
      taken: 2,
      branchSteps: 3,
    });
    const stepsP50 = result.summary.variants[0]?.steps.p50;
    expect(stepsP50).toBe(5);
    await store.expectVerifies();
  });

  it("answers a branch's typed question from the scenario's recorded answer, as `uwf run` does", async () => {
    const store = storeOf(kind);
    const { workflow, agent } = compositionFixture("review-ask");
    const suite = writeSuite(store, "ask", workflow, agent, "shipped");
    const result = evalResultSchema.parse(await store.json(["eval", "--suite", suite]));
    expect(result.summary.variants[0]).toMatchObject({ samples: 1, passed: 1 });
    const gates = (await store.list()).filter((thread) => thread.branchOf?.branch === "gate");
    expect(gates).toHaveLength(1);
    for (const gate of gates) {
      expect(gate).toMatchObject({ status: "ended", outcome: { role: "gate", status: "decided" } });
      const log = await store.json<{ steps: Array<{ role: string; answer?: unknown }> }>(["log", gate.id]);
      expect(log.steps.map((step) => step.role)).toEqual(["planner", "gate", "gate"]);
    }
    await store.expectVerifies();
  });

  it("`uwf run` plays the same branch's recorded answer and ends", async () => {
    const store = storeOf(kind);
    const { workflow, agent } = compositionFixture("review-ask");
    const run = await store.uwf(["run", workflow, "-p", "Ship the cache", "--agent", agent, "--json"]);
    expect(run.exitCode).toBe(0);
    expect(run.json()).toMatchObject({ status: "ended", outcome: { role: "merger", status: "shipped" } });
    const gate = (await store.list()).find((thread) => thread.branchOf?.branch === "gate");
    expect(gate).toMatchObject({ status: "ended", stepCount: 3, outcome: { role: "gate", status: "decided" } });
    await store.expectVerifies();
  });
});
