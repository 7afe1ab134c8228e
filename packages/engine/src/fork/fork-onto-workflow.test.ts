import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEngineTestKit, type EngineTestKit, FIXTURES } from "../../test/engine-test-kit.ts";
import {
  buildFamilyTree,
  diffChains,
  forkThreads,
  resolveWorkflow,
  resumeThread,
  stepThread,
  stepUntilDone,
  WorkflowMismatchError,
} from "../index.ts";

let kit: EngineTestKit;
beforeEach(() => {
  kit = createEngineTestKit();
});
afterEach(() => kit.cleanup());

const PLANNER = `  planner:
    goal: Plan the work.
    frontmatter: { type: object, properties: { plan: { type: string } }, required: [plan] }`;
const DOER = `  doer:
    goal: Carry out the plan.
    frontmatter: { type: object, properties: { done: { type: boolean } }, required: [done] }`;
const REVIEWER = `  reviewer:
    goal: Check the plan.
    frontmatter: { type: object, properties: { ok: { type: boolean } }, required: [ok] }`;

/** linear.yaml's next version: a reviewer checks the plan before the doer runs it. */
const REVIEWED = `name: linear
roles:
${PLANNER}
${REVIEWER}
${DOER}
graph:
  $START: [{ role: planner, prompt: "Plan the task." }]
  planner: [{ role: reviewer, prompt: "Review this plan: {{ plan }}" }]
  reviewer: [{ role: doer, prompt: "Carry it out." }]
  doer: [{ role: $END, prompt: "Done." }]
`;

/** A version without the planner. */
const NO_PLANNER = `name: linear
roles:
${DOER}
graph:
  $START: [{ role: doer, prompt: "Do it." }]
  doer: [{ role: $END, prompt: "Done." }]
`;

/** A version whose planner routes only on a condition the recorded plan does not meet. */
const PICKY = `name: linear
roles:
${PLANNER}
${DOER}
conditions:
  long: { description: A long plan, expression: "$length(steps[-1].output.plan) > 1000" }
graph:
  $START: [{ role: planner, prompt: "Plan the task." }]
  planner: [{ role: doer, condition: long, prompt: "Carry out this plan: {{ plan }}" }]
  doer: [{ role: $END, prompt: "Done." }]
`;

async function storedVersion(source: string, file = "linear.yaml") {
  const path = join(kit.home, file);
  writeFileSync(path, source);
  const resolved = await resolveWorkflow({
    store: kit.store,
    reference: path,
    cwd: kit.home,
    home: kit.home,
    now: kit.now,
  });
  return { address: resolved.address, node: resolved.workflow };
}

describe("forkThread onto another workflow version", () => {
  it("runs the fork under the new version, routes the next step by its graph, and names both versions", async () => {
    const original = await kit.finishedThread();
    const reviewed = await storedVersion(REVIEWED);
    const fork = await kit.fork(original.planner, { workflow: reviewed });
    expect(fork).toMatchObject({
      workflow: "linear",
      workflowAddress: reviewed.address,
      start: original.record.start,
      head: original.planner,
      status: "active",
      next: "reviewer",
      stepCount: 1,
    });
    expect(fork.forkedFrom).toEqual({
      thread: original.record.id,
      step: 1,
      address: original.planner,
      replaced: false,
      workflow: original.record.workflowAddress,
    });
    expect(await kit.store.refs.getThread(fork.id)).toEqual(fork);

    // The scripted agent plays a scenario by step number: the fork's first step of its own is step 2.
    const agent = kit.scriptedAgent([
      { role: "planner", output: { plan: "unused" } },
      { role: "reviewer", output: { ok: true } },
      { role: "doer", output: { done: true } },
    ]);
    const done = await stepUntilDone({
      ...kit.stepOptions(fork.id, { defaultAgent: agent }),
      maxSteps: Number.POSITIVE_INFINITY,
    });
    expect(done.error).toBeUndefined();
    expect(done.record).toMatchObject({ status: "ended", stepCount: 3, workflowAddress: reviewed.address });
    expect(done.steps.map((step) => step.role)).toEqual(["reviewer", "doer"]);
    expect(await kit.store.refs.getThread(original.record.id)).toEqual(original.record);

    // A plain fork of the moved thread stays on its version; one of the original's steps on the original's.
    const again = await kit.fork(done.record.head, { parent: done.record });
    expect(again.workflowAddress).toBe(reviewed.address);
    expect(again.forkedFrom).not.toHaveProperty("workflow");
    const back = await kit.fork(original.planner, { parent: done.record });
    expect(back).toMatchObject({ workflowAddress: original.record.workflowAddress, next: "doer" });

    const tree = await buildFamilyTree(kit.store, original.record);
    const moved = tree.roots[0]?.children.find((child) => child.thread === fork.id);
    expect(moved?.forkedOnto).toEqual({ name: "linear", address: reviewed.address });
    expect(tree.roots[0]?.forkedOnto).toBeUndefined();

    const diff = await diffChains(
      kit.store,
      { head: original.record.head, thread: original.record },
      { head: done.record.head, thread: done.record },
    );
    expect(diff.commonSteps).toBe(1);
    expect(diff.workflowChange).toEqual({
      left: { name: "linear", address: original.record.workflowAddress },
      right: { name: "linear", address: reviewed.address },
      switches: {
        left: [],
        right: [
          {
            thread: fork.id,
            step: 1,
            from: original.record.workflowAddress,
            to: { name: "linear", address: reviewed.address },
          },
        ],
      },
    });
  });

  it("makes many forks, and counterfactuals checked and routed by the new version", async () => {
    const original = await kit.finishedThread();
    const reviewed = await storedVersion(REVIEWED);
    const forks = await forkThreads({
      store: kit.store,
      address: original.planner,
      forks: [null, null, { text: "---\nplan: a shorter plan\n---\nShorter.\n", file: "reply.md" }],
      workflow: reviewed,
      now: kit.now,
      newId: kit.newId,
    });
    expect(forks.map((fork) => [fork.next, fork.workflowAddress, fork.forkedFrom?.replaced])).toEqual([
      ["reviewer", reviewed.address, false],
      ["reviewer", reviewed.address, false],
      ["reviewer", reviewed.address, true],
    ]);
    for (const fork of forks) expect(fork.forkedFrom?.workflow).toBe(original.record.workflowAddress);
    // A replacement that does not fit the role's schema is refused as without --workflow.
    const refused = await kit
      .fork(original.planner, {
        workflow: reviewed,
        replacementReply: { text: "---\nok: true\n---\n", file: "bad.md" },
      })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "invalid-reply", data: { file: "bad.md", role: "planner" } });
  });

  it("makes a plain fork when the version is the parent's own", async () => {
    const original = await kit.finishedThread();
    const node = await kit.store.objects.get(original.record.workflowAddress);
    const fork = await kit.fork(original.planner, {
      workflow: { address: original.record.workflowAddress, node: node as never },
    });
    expect(fork.forkedFrom).not.toHaveProperty("workflow");
    expect(fork.workflowAddress).toBe(original.record.workflowAddress);
  });

  it("refuses a version without the node's role, writing no thread", async () => {
    const original = await kit.finishedThread();
    const refused = await kit
      .fork(original.planner, { workflow: await storedVersion(NO_PLANNER) })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WorkflowMismatchError);
    expect(refused).toMatchObject({
      code: "workflow-mismatch",
      data: { role: "planner", step: 1, node: original.planner },
    });
    expect((await kit.store.refs.listThreads({})).total).toBe(1);
  });

  it("refuses a version whose graph cannot route from the node, naming why", async () => {
    const original = await kit.finishedThread();
    const refused = await kit
      .fork(original.planner, { workflow: await storedVersion(PICKY) })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WorkflowMismatchError);
    expect((refused as Error).message).toContain("cannot route from there");
    expect((await kit.store.refs.listThreads({})).total).toBe(1);
  });

  it("refuses a fanned-out head on a version without the join role its branches wait for", async () => {
    const review = join(FIXTURES, "review-fan-out.yaml");
    const started = await kit.startThread({ workflow: review });
    const agent = `scripted:${join(FIXTURES, "review-fan-out.scenario.yaml")}`;
    const fanned = await stepThread(kit.stepOptions(started.id, { defaultAgent: agent }));
    expect(fanned.record).toMatchObject({ status: "waiting", next: "synthesizer" });
    const renamed = readFileSync(review, "utf8").replaceAll("synthesizer", "merger");
    const before = (await kit.store.refs.listThreads({})).total;
    const refused = await kit
      .fork(fanned.record.head, {
        parent: fanned.record,
        workflow: await storedVersion(renamed, "review-fan-out.yaml"),
      })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "workflow-mismatch", data: { role: "synthesizer", step: 1 } });
    expect((await kit.store.refs.listThreads({})).total).toBe(before);
  });

  it("keeps a fork at a suspension suspended, and resumes it on the new version", async () => {
    const started = await kit.startThread();
    const asking = kit.scriptedAgent([{ role: "planner", output: { $status: "$SUSPEND", reason: "Which target?" } }]);
    const suspended = await stepUntilDone({ ...kit.stepOptions(started.id, { defaultAgent: asking }), maxSteps: 1 });
    expect(suspended.record.status).toBe("suspended");
    const reviewed = await storedVersion(REVIEWED);
    const fork = await kit.fork(suspended.record.head, { parent: suspended.record, workflow: reviewed });
    expect(fork).toMatchObject({ status: "suspended", next: "planner", workflowAddress: reviewed.address });

    const agent = kit.scriptedAgent([
      { role: "planner", output: { $status: "$SUSPEND", reason: "Which target?" } },
      { role: "planner", output: { plan: "the staging target" } },
      { role: "reviewer", output: { ok: true } },
      { role: "doer", output: { done: true } },
    ]);
    const resumed = await resumeThread({ ...kit.stepOptions(fork.id, { defaultAgent: agent }), answer: "Staging." });
    if (resumed.kind !== "stepped") throw new Error(`expected a step, got ${resumed.kind}`);
    expect(resumed.record).toMatchObject({ next: "reviewer", workflowAddress: reviewed.address });
  });
});
