import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import type { FanOutNode, ThreadRecord, ThreadStepNode } from "@uwf/protocol";
import { createEngineTestKit, type EngineTestKit } from "../../test/engine-test-kit.ts";
import { buildFamilyTree, loadBranchGroups } from "../index.ts";

// The fan-out itself is made by the engine's step; these tests read what it stores, written here through
// the store's own API: a parent whose planner step fanned out (a fan-out/1 node on its step node), its
// branches linked in the ref store, and its doer step after them as the join.

let kit: EngineTestKit;
beforeEach(() => {
  kit = createEngineTestKit();
});
afterEach(() => kit.cleanup());

const FAN_OUT: FanOutNode = {
  type: "fan-out/1",
  kind: "parallel",
  edge: 0,
  join: { role: "doer", policy: { quorum: 2 }, failFast: false },
  maxConcurrent: null,
  onCancel: "cancel",
  branches: [
    { key: "security", role: "doer", workflow: null, prompt: "Review for security" },
    { key: "speed", role: "doer", workflow: null, prompt: "Review for speed" },
    { key: "docs", role: null, workflow: "linear", prompt: "Write the docs" },
  ],
};

/** The thread's steps rewritten so its step `at` fanned out (the later ones re-linked after it): the new addresses. */
async function fanOutAt(record: ThreadRecord, at: number, update: Partial<ThreadRecord> = {}): Promise<string[]> {
  const fanOut = await kit.store.objects.put(FAN_OUT);
  const addresses: string[] = [];
  let prev: string | null = null;
  for (const [index, address] of (await kit.stepAddresses(record)).entries()) {
    const node = (await kit.store.objects.get(address)) as ThreadStepNode;
    const rewritten = { ...node, ...(index === 0 ? {} : { prev }), ...(index + 1 === at ? { fanOut } : {}) };
    prev = await kit.store.objects.put(rewritten);
    addresses.push(prev);
  }
  const head = addresses.at(-1) as string;
  expect(await kit.store.refs.updateThread(record.id, record.head, { head, ...update })).toBe(true);
  return addresses;
}

/** A role branch of `parent` at its step `step` (address `address`), as the engine records one. */
function roleBranch(parent: ThreadRecord, step: number, address: string, key: string, extra: Partial<ThreadRecord>) {
  const { outcome: _outcome, failure: _failure, ...rest } = parent;
  return {
    ...rest,
    id: kit.newId(),
    head: address,
    stepCount: step,
    status: "active",
    next: "doer",
    forkedFrom: null,
    branchOf: { thread: parent.id, step, branch: key, address, role: "doer" },
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    ...extra,
  } satisfies ThreadRecord;
}

function link(parent: string, step: number, key: string, index: number, thread: string) {
  return { parent, step, key, index, thread, createdAt: new Date().toISOString() };
}

/**
 * A parent (linear.yaml, ended: planner fanned out, doer joined) with three branches: `security` ended
 * after one step of its own, `speed` failed, and `docs`, a workflow branch (a thread of its own start).
 */
async function family() {
  const { record } = await kit.finishedThread();
  const [fanOutStep] = (await fanOutAt(record, 1)) as [string];
  const parent = (await kit.store.refs.getThread(record.id)) as ThreadRecord;
  const security = roleBranch(parent, 1, fanOutStep, "security", {
    stepCount: 2,
    status: "ended",
    outcome: { role: "doer", status: "ok", edge: null },
    usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.25 },
  });
  const speed = roleBranch(parent, 1, fanOutStep, "speed", {
    status: "failed",
    failure: { code: "agent-failed", message: "it crashed", attempts: 3, failedAt: new Date().toISOString() },
  });
  const docsStarted = await kit.startThread({ prompt: "Write the docs" });
  const docsOrigin = { thread: parent.id, step: 1, branch: "docs", address: fanOutStep, role: null };
  expect(await kit.store.refs.updateThread(docsStarted.id, docsStarted.head, { branchOf: docsOrigin })).toBe(true);
  await kit.store.refs.createBranches([
    { link: link(parent.id, 1, "security", 0, security.id), record: security },
    { link: link(parent.id, 1, "speed", 1, speed.id), record: speed },
    { link: link(parent.id, 1, "docs", 2, docsStarted.id) },
  ]);
  const docs = (await kit.store.refs.getThread(docsStarted.id)) as ThreadRecord;
  return { parent, fanOutStep, security, speed, docs };
}

describe("loadBranchGroups", () => {
  it("lists a fan-out under its step with each branch's state, own steps and spend, joined at the next step", async () => {
    const { parent, fanOutStep, security, speed, docs } = await family();
    const groups = await loadBranchGroups(kit.store, parent);
    expect(groups).toEqual([
      {
        step: 1,
        address: fanOutStep,
        kind: "parallel",
        join: "doer",
        policy: "quorum:2",
        joinedAt: 2,
        branches: [
          {
            key: "security",
            thread: security.id,
            status: "ended",
            role: "doer",
            workflow: null,
            outcome: { role: "doer", status: "ok", edge: null },
            error: null,
            steps: 1,
            usage: security.usage,
            head: security.head,
          },
          {
            key: "speed",
            thread: speed.id,
            status: "failed",
            role: "doer",
            workflow: null,
            outcome: null,
            error: { code: "agent-failed", message: "it crashed" },
            steps: 0,
            usage: speed.usage,
            head: speed.head,
          },
          {
            key: "docs",
            thread: docs.id,
            status: "active",
            role: null,
            workflow: "linear",
            outcome: null,
            error: null,
            steps: 0,
            usage: docs.usage,
            head: docs.head,
          },
        ],
      },
    ]);
  });

  it("lists a head step that fanned out before its branches were made, with none, and nothing for a thread that never fanned out", async () => {
    const started = await kit.startThread();
    const stepped = await kit.finishedThread();
    expect(await loadBranchGroups(kit.store, stepped.record)).toEqual([]);
    expect(await loadBranchGroups(kit.store, started)).toEqual([]);

    const { record } = await kit.finishedThread();
    const addresses = await fanOutAt(record, 2, { status: "waiting", next: "doer" });
    const waiting = (await kit.store.refs.getThread(record.id)) as ThreadRecord;
    const groups = await loadBranchGroups(kit.store, waiting);
    expect(groups).toMatchObject([{ step: 2, address: addresses[1], joinedAt: null, branches: [] }]);
    // A role branch not stepped yet stands at its parent's fan-out step: that fan-out is not its own.
    const branch = roleBranch(waiting, 2, addresses[1] as string, "only", {});
    await kit.store.refs.createBranches([{ link: link(waiting.id, 2, "only", 0, branch.id), record: branch }]);
    expect(await loadBranchGroups(kit.store, branch)).toEqual([]);
  });
});

describe("buildFamilyTree with branches", () => {
  it("places role and workflow branches under their parent's step as branches, apart from forks", async () => {
    const { parent, fanOutStep, security, speed, docs } = await family();
    const fork = await kit.fork(fanOutStep, { parent });
    const tree = await buildFamilyTree(kit.store, parent);
    expect(tree.roots).toHaveLength(1);
    const [root] = tree.roots as [(typeof tree.roots)[number]];
    expect(root.thread).toBe(parent.id);
    expect(root.kind).toBe("fork");
    expect(root.children.map((child) => [child.thread, child.kind, child.branchedAt, child.branchOf?.branch])).toEqual([
      [fork.id, "fork", 1, undefined],
      [security.id, "branch", 1, "security"],
      [speed.id, "branch", 1, "speed"],
      [docs.id, "branch", 1, "docs"],
    ]);
  });

  it("finds a branch's family through its parent, a workflow branch's too", async () => {
    const { parent, security, docs } = await family();
    for (const branch of [security, docs]) {
      const tree = await buildFamilyTree(kit.store, branch);
      expect(tree.thread).toBe(branch.id);
      expect(tree.roots[0]?.thread).toBe(parent.id);
      expect(tree.roots).toHaveLength(1);
    }
  });
});
