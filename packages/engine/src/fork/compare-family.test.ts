import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CompareRow, ThreadRecord } from "@uwf/protocol";
import { VERDICT_WORKFLOW } from "../../../../test/kit/workflow/verdict-workflow.ts";
import { createEngineTestKit, type EngineTestKit, type ScenarioEntry } from "../../test/engine-test-kit.ts";
import { compareFamily, readChain, resolveNodeOrThread, stepUntilDone } from "../index.ts";

let kit: EngineTestKit;
let workflow: string;
beforeEach(() => {
  kit = createEngineTestKit();
  workflow = join(kit.home, "verdict.yaml");
  writeFileSync(workflow, VERDICT_WORKFLOW);
});
afterEach(() => kit.cleanup());

const write = (draft: string): ScenarioEntry => ({ role: "writer", output: { draft }, body: draft });
const review = (status: string): ScenarioEntry => ({ role: "reviewer", output: { $status: status }, body: status });

async function run(thread: ThreadRecord, entries: ScenarioEntry[]): Promise<ThreadRecord> {
  const done = await stepUntilDone({
    ...kit.stepOptions(thread.id, { defaultAgent: kit.scriptedAgent(entries) }),
    maxSteps: Number.POSITIVE_INFINITY,
  });
  if (done.error !== undefined) throw done.error;
  return done.record;
}

async function compare(reference: string, options: Parameters<typeof compareFamily>[3] = {}) {
  return compareFamily(kit.store, await resolveNodeOrThread(kit.store, reference), reference, options);
}

function byThread(rows: readonly CompareRow[]): Map<string, CompareRow> {
  return new Map(rows.map((row) => [row.thread, row]));
}

/**
 * An original that was sent back once and then approved (writer, reviewer changes, writer, reviewer
 * approved), and forks of it: at the first writer step (rejected after), a counterfactual of the first
 * review (approved at once), a counterfactual of the first review that asks for changes and is then
 * rejected, and a fork of that counterfactual at its own writer step, left unstepped.
 */
async function family() {
  const started = await kit.startThread({ workflow });
  const original = await run(started, [write("one"), review("changes"), write("two"), review("approved")]);
  const [writer1, review1] = (await readChain(kit.store, original.head)).steps.map((step) => step.address) as [
    string,
    string,
  ];
  const inner = await run(await kit.fork(writer1, { parent: original }), [write("one"), review("rejected")]);
  const approvedAtOnce = await kit.fork(review1, {
    parent: original,
    replacementReply: { text: "---\n$status: approved\n---\nFine as it is.\n", file: "approve.md" },
  });
  const counterfactual = await run(
    await kit.fork(review1, {
      parent: original,
      replacementReply: { text: "---\n$status: changes\n---\nShorter.\n", file: "changes.md" },
    }),
    [write("one"), review("x"), write("short"), review("rejected")],
  );
  const counterfactualWriter = (await readChain(kit.store, counterfactual.head)).steps[2]?.address as string;
  const grandchild = await kit.fork(counterfactualWriter, { parent: counterfactual });
  return { original, writer1, review1, inner, approvedAtOnce, counterfactual, grandchild };
}

describe("compareFamily", () => {
  it("gives one row per member, the original first, each with its outcome, own steps and where it parts from the original", async () => {
    const f = await family();
    const result = await compare(f.original.id.slice(0, 10));
    expect(result).toMatchObject({ original: f.original.id, at: null, workflow: "verdict", direct: false, sort: null });
    // Family order: the original, then forks by the step they were forked at, each followed by its own forks.
    expect(result.rows.map((row) => row.thread)).toEqual([
      f.original.id,
      f.inner.id,
      f.approvedAtOnce.id,
      f.counterfactual.id,
      f.grandchild.id,
    ]);
    const rows = byThread(result.rows);
    expect(rows.get(f.original.id)).toMatchObject({
      status: "ended",
      outcome: { role: "reviewer", status: "approved" },
      depth: 0,
      parent: null,
      forkedAt: null,
      stepCount: 4,
      ownSteps: 4,
      parts: null,
    });
    expect(rows.get(f.inner.id)).toMatchObject({
      status: "ended",
      outcome: { role: "reviewer", status: "rejected" },
      depth: 1,
      parent: f.original.id,
      forkedAt: { step: 1, address: f.writer1, replaced: false },
      stepCount: 2,
      ownSteps: 1,
      parts: { step: 2, role: "reviewer", replaced: false },
    });
    expect(rows.get(f.inner.id)?.parts?.address).toBe(f.inner.head);
    // A counterfactual parts at the step whose reply it replaced, which is not a step it took (no agent ran it).
    expect(rows.get(f.approvedAtOnce.id)).toMatchObject({
      status: "ended",
      outcome: { role: "reviewer", status: "approved" },
      forkedAt: { step: 2, address: f.review1, replaced: true },
      stepCount: 2,
      ownSteps: 0,
      parts: { step: 2, role: "reviewer", address: f.approvedAtOnce.head, replaced: true },
      // Its only step was written, not run.
      durationMs: null,
    });
    expect(rows.get(f.counterfactual.id)).toMatchObject({
      outcome: { role: "reviewer", status: "rejected" },
      stepCount: 4,
      ownSteps: 2,
      parts: { step: 2, role: "reviewer", replaced: true },
    });
    expect(rows.get(f.counterfactual.id)?.durationMs).toBeGreaterThanOrEqual(0);
    // A fork of a fork parts from the original where its parent did; it has no step of its own.
    expect(rows.get(f.grandchild.id)).toMatchObject({
      status: "active",
      depth: 2,
      parent: f.counterfactual.id,
      forkedAt: { step: 3, replaced: false },
      stepCount: 3,
      ownSteps: 0,
      durationMs: null,
      parts: { step: 2, role: "reviewer", replaced: true },
    });
    expect(rows.get(f.grandchild.id)).not.toHaveProperty("outcome");
    for (const row of result.rows) {
      expect(row.usage).toEqual((await kit.store.refs.getThread(row.thread))?.usage as CompareRow["usage"]);
    }
  });

  it("keeps to the original's own forks with direct, and compares a fork with its own forks", async () => {
    const f = await family();
    const direct = await compare(f.original.id, { direct: true });
    expect(direct.direct).toBe(true);
    expect(direct.rows.map((row) => row.thread)).toEqual([
      f.original.id,
      f.inner.id,
      f.approvedAtOnce.id,
      f.counterfactual.id,
    ]);
    const ofFork = await compare(f.counterfactual.id);
    expect(ofFork.rows.map((row) => [row.thread, row.depth, row.parts?.step ?? null])).toEqual([
      [f.counterfactual.id, 0, null],
      // Forked at the counterfactual's step 3 and not stepped: it holds nothing the counterfactual lacks.
      [f.grandchild.id, 1, null],
    ]);
    // The first row keeps its own fork point and own steps.
    expect(ofFork.rows[0]).toMatchObject({ forkedAt: { step: 2, replaced: true }, ownSteps: 2 });
  });

  it("named by a step, compares the forks made at it with the thread that recorded it", async () => {
    const f = await family();
    const result = await compare(f.review1);
    expect(result.at).toEqual({ address: f.review1, step: 2 });
    expect(result.original).toBe(f.original.id);
    expect(result.rows.map((row) => row.thread)).toEqual([
      f.original.id,
      f.approvedAtOnce.id,
      f.counterfactual.id,
      f.grandchild.id,
    ]);
    expect((await compare(f.review1, { direct: true })).rows.map((row) => row.thread)).toEqual([
      f.original.id,
      f.approvedAtOnce.id,
      f.counterfactual.id,
    ]);
    // The start node: every fork made at it (none here), with the original.
    expect((await compare(f.original.start)).rows.map((row) => row.thread)).toEqual([f.original.id]);
  });

  it("sorts the forks by a column, the original staying first and rows without the value last", async () => {
    const f = await family();
    const bySteps = await compare(f.original.id, { sort: "steps" });
    expect(bySteps.sort).toBe("steps");
    expect(bySteps.rows.map((row) => row.thread)).toEqual([
      f.original.id,
      f.approvedAtOnce.id,
      f.grandchild.id,
      f.inner.id,
      f.counterfactual.id,
    ]);
    const byOutcome = await compare(f.original.id, { sort: "outcome" });
    expect(byOutcome.rows.map((row) => row.outcome?.status ?? null)).toEqual([
      "approved",
      "approved",
      "rejected",
      "rejected",
      null,
    ]);
    const byDuration = await compare(f.original.id, { sort: "duration" });
    expect(byDuration.rows.slice(-2).map((row) => row.durationMs)).toEqual([null, null]);
  });

  it("names a failed member's error code", async () => {
    const started = await kit.startThread({ workflow });
    const original = await run(started, [write("one"), review("approved")]);
    const writer1 = (await readChain(kit.store, original.head)).steps[0]?.address as string;
    const fork = await kit.fork(writer1, { parent: original });
    const failed = await stepUntilDone({
      ...kit.stepOptions(fork.id, { defaultAgent: kit.scriptedAgent([write("one")]) }),
      maxSteps: Number.POSITIVE_INFINITY,
    });
    expect(failed.record.status).toBe("failed");
    const rows = byThread((await compare(original.id)).rows);
    expect(rows.get(fork.id)).toMatchObject({ status: "failed", failure: "agent-failed", parts: null, ownSteps: 0 });
  });
});
