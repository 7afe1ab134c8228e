import { describe, expect, it } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Store } from "@uwf/cas";
import type { JoinedBranchesNode, ThreadRecord, ThreadStepNode } from "@uwf/protocol";
import { createEngineTestKit, FIXTURES } from "../../test/engine-test-kit.ts";
import { BranchFailedError } from "../errors/branch-failed-error.ts";
import { readChain } from "../history/read-chain.ts";
import { resumeThread } from "../step/resume-thread.ts";
import { stepThread } from "../step/step-thread.ts";
import { stepUntilDone } from "../step/step-until-done.ts";
import { cancelWithBranches } from "./cancel-with-branches.ts";
import { ensureBranches } from "./ensure-branches.ts";

const REVIEW = join(FIXTURES, "review-fan-out.yaml");
const REVIEW_AGENT = `scripted:${join(FIXTURES, "review-fan-out.scenario.yaml")}`;
const FILES = join(FIXTURES, "files-fan-out.yaml");
const FILES_AGENT = `scripted:${join(FIXTURES, "files-fan-out.scenario.yaml")}`;

async function branchesOf(store: Store, parent: ThreadRecord): Promise<ThreadRecord[]> {
  const links = await store.refs.listBranches(parent.id);
  return Promise.all(links.map(async (link) => (await store.refs.getThread(link.thread)) as ThreadRecord));
}

async function headNode(store: Store, record: ThreadRecord): Promise<ThreadStepNode> {
  return (await store.objects.get(record.head)) as ThreadStepNode;
}

describe("branches", () => {
  it("fans a reply out into named branches, steps them, then runs the join, which sees every result", async () => {
    const kit = createEngineTestKit();
    try {
      const parent = await kit.startThread({ workflow: REVIEW });
      const step = kit.stepOptions(parent.id, { defaultAgent: REVIEW_AGENT });
      const started: unknown[] = [];
      const first = await stepThread({ ...step, onBranchesStarted: (event) => void started.push(event) });
      expect(first.record).toMatchObject({ status: "waiting", next: "synthesizer", stepCount: 1 });
      const branches = await branchesOf(kit.store, first.record);
      expect(branches.map((branch) => branch.branchOf?.branch)).toEqual(["security", "speed", "style"]);
      for (const branch of branches) {
        expect(branch).toMatchObject({ status: "active", next: "reviewer", head: first.record.head, stepCount: 1 });
        expect(branch.branchOf).toMatchObject({
          thread: parent.id,
          step: 1,
          role: "reviewer",
          address: first.record.head,
        });
      }
      expect(started).toHaveLength(1);

      const joined: unknown[] = [];
      const finished: string[] = [];
      const done = await stepUntilDone({
        ...step,
        maxSteps: Number.POSITIVE_INFINITY,
        onBranchesJoined: (event) => void joined.push(event),
        onBranchStepFinished: (summary, record) => void finished.push(`${record.branchOf?.branch}:${summary.role}`),
      });
      expect(done.error).toBeUndefined();
      expect(done.record).toMatchObject({ status: "ended", stepCount: 2 });
      expect(finished.sort()).toEqual(["security:reviewer", "speed:reviewer", "style:reviewer"]);
      expect(joined).toHaveLength(1);
      const after = await branchesOf(kit.store, done.record);
      for (const branch of after) {
        expect(branch.status).toBe("ended");
        expect(branch.outcome).toEqual({ role: "reviewer", status: "approve", edge: null });
      }
      const join = await headNode(kit.store, done.record);
      expect(join.role).toBe("synthesizer");
      expect(join.edgePrompt).toContain("Merge the reviews: security=safe speed=fast style=tidy");
      expect(join.edgePrompt).toContain("### Branch speed");
      expect(join.edgePrompt).toContain("One lookup.");
      const results = (await kit.store.objects.get(join.joined as string)) as JoinedBranchesNode;
      expect(results.results.map((result) => [result.key, result.status])).toEqual([
        ["security", "ended"],
        ["speed", "ended"],
        ["style", "ended"],
      ]);
      // The parent's chain is its own two steps: branch steps live on the branches' chains.
      const chain = await readChain(kit.store, done.record.head);
      expect(chain.steps.map((entry) => entry.role)).toEqual(["planner", "synthesizer"]);
    } finally {
      kit.cleanup();
    }
  });

  it("keeps named branches in the order they are written, though the stored workflow's maps are sorted", async () => {
    const kit = createEngineTestKit();
    try {
      const source = readFileSync(REVIEW, "utf8")
        .replace("        security: {", "        zulu: {")
        .replace("        speed: {", "        alpha: {")
        .replace("        style: {", "        mike: {");
      const file = join(kit.home, "review-order.yaml");
      writeFileSync(file, source);
      const agent = kit.scriptedAgent([
        { role: "planner", output: { $status: "ready", plan: "p" } },
        { role: "synthesizer", output: { $status: "merged", summary: "s" } },
        { role: "reviewer", branch: "*", output: { $status: "approve", verdict: "ok" } },
      ]);
      const parent = await kit.startThread({ workflow: file });
      const done = await stepUntilDone({
        ...kit.stepOptions(parent.id, { defaultAgent: agent }),
        maxSteps: Number.POSITIVE_INFINITY,
      });
      expect(done.record.status).toBe("ended");
      expect((await kit.store.refs.listBranches(parent.id)).map((link) => link.key)).toEqual(["zulu", "alpha", "mike"]);
      const joinStep = await headNode(kit.store, done.record);
      expect(joinStep.edgePrompt).toContain("Merge the reviews: zulu=ok alpha=ok mike=ok");
      const results = (await kit.store.objects.get(joinStep.joined as string)) as JoinedBranchesNode;
      expect(results.results.map((result) => result.key)).toEqual(["zulu", "alpha", "mike"]);
    } finally {
      kit.cleanup();
    }
  });

  it("steps a wide fan-out's branches reading each branch's record a few times, not every branch per step", async () => {
    const kit = createEngineTestKit();
    try {
      const width = 40;
      const files = Array.from({ length: width }, (_, index) => ({ path: `f${index}.ts` }));
      const agent = kit.scriptedAgent([
        { role: "splitter", output: { files } },
        { role: "reducer", output: { summary: "done" } },
        { role: "fixer", branch: "*", output: { fixed: true } },
      ]);
      const parent = await kit.startThread({ workflow: FILES, limits: { maxSteps: 100 } });
      const step = kit.stepOptions(parent.id, { defaultAgent: agent, parallel: 4 });
      await stepThread(step);
      let reads = 0;
      const counting: Store = {
        ...kit.store,
        refs: Object.assign(Object.create(kit.store.refs), {
          getThread: (id: string) => {
            reads++;
            return kit.store.refs.getThread(id);
          },
        }),
      };
      const done = await stepUntilDone({ ...step, store: counting, maxSteps: Number.POSITIVE_INFINITY });
      expect(done.record.status).toBe("ended");
      // Reading every branch before and after each branch step (the budget, the settle) was width² reads.
      expect(reads).toBeLessThan(width * 12);
    } finally {
      kit.cleanup();
    }
  });

  it("makes a foreach fan-out's branches in item order, at most maxConcurrent at a time, and joins all-settled", async () => {
    const kit = createEngineTestKit();
    try {
      const parent = await kit.startThread({ workflow: FILES });
      const step = kit.stepOptions(parent.id, { defaultAgent: FILES_AGENT, parallel: 8 });
      await stepThread(step);
      const round = await stepThread(step);
      expect(round.kind).toBe("branches");
      // maxConcurrent 2 beats --parallel 8: two branches stepped in this step.
      const stepped = (await branchesOf(kit.store, parent)).filter((branch) => branch.status === "ended");
      expect(stepped).toHaveLength(2);
      const done = await stepUntilDone({ ...step, maxSteps: Number.POSITIVE_INFINITY });
      expect(done.error).toBeUndefined();
      expect(done.record.status).toBe("ended");
      const all = await branchesOf(kit.store, done.record);
      expect(all.map((branch) => branch.branchOf?.branch)).toEqual(["0", "1", "2"]);
      const join = await headNode(kit.store, done.record);
      expect(join.edgePrompt).toContain("Summarise 3 fixes");
      // The reducer's condition saw `branches`: every one ended, so the `all_fixed` edge was taken.
      expect(done.record.outcome?.edge?.condition).toBe("all_fixed");
    } finally {
      kit.cleanup();
    }
  });

  it("makes a fan-out's branches once, however often and however concurrently they are asked for", async () => {
    const kit = createEngineTestKit();
    try {
      const parent = await kit.startThread({ workflow: REVIEW });
      const step = kit.stepOptions(parent.id, { defaultAgent: REVIEW_AGENT });
      // A store that loses the branches as the process would if killed after the fan-out step.
      const refs = kit.store.refs;
      let crash = true;
      const crashing: Store = {
        ...kit.store,
        refs: Object.assign(Object.create(refs), {
          createBranches: async (entries: Parameters<typeof refs.createBranches>[0]) => {
            if (crash) throw new Error("killed");
            return refs.createBranches(entries);
          },
        }),
      };
      await expect(stepThread({ ...step, store: crashing })).rejects.toThrow("killed");
      crash = false;
      const waiting = (await refs.getThread(parent.id)) as ThreadRecord;
      expect(waiting.status).toBe("waiting");
      expect(await refs.listBranches(parent.id)).toEqual([]);
      const options = { store: kit.store, home: kit.home, now: kit.now };
      await Promise.all([ensureBranches(waiting, options), ensureBranches(waiting, options), stepThread(step)]);
      const links = await refs.listBranches(parent.id);
      expect(links.map((link) => link.key)).toEqual(["security", "speed", "style"]);
      const { threads } = await refs.listThreads({});
      expect(threads.filter((thread) => thread.branchOf?.thread === parent.id)).toHaveLength(3);
    } finally {
      kit.cleanup();
    }
  });

  it("keeps a branch's suspension its own: its siblings finish, the parent waits, and the answer lets it join", async () => {
    const kit = createEngineTestKit();
    try {
      const agent = kit.scriptedAgent([
        { role: "planner", output: { $status: "ready", plan: "p" } },
        { role: "synthesizer", output: { $status: "merged", summary: "s" } },
        {
          role: "reviewer",
          branch: "security",
          output: { $status: "$SUSPEND", reason: "Which threat model?" },
        },
        { role: "reviewer", branch: "security", output: { $status: "approve", verdict: "ok" } },
        { role: "reviewer", branch: "*", output: { $status: "approve", verdict: "ok" } },
      ]);
      const parent = await kit.startThread({ workflow: REVIEW });
      const step = kit.stepOptions(parent.id, { defaultAgent: agent });
      const first = await stepUntilDone({ ...step, maxSteps: Number.POSITIVE_INFINITY });
      expect(first.record.status).toBe("waiting");
      const branches = await branchesOf(kit.store, first.record);
      expect(branches.map((branch) => branch.status)).toEqual(["suspended", "ended", "ended"]);
      const security = branches[0] as ThreadRecord;
      expect(security.reason).toBe("Which threat model?");
      await resumeThread({ ...kit.stepOptions(security.id, { defaultAgent: agent }), answer: "STRIDE" });
      const done = await stepUntilDone({ ...step, maxSteps: Number.POSITIVE_INFINITY });
      expect(done.record.status).toBe("ended");
    } finally {
      kit.cleanup();
    }
  });

  it("fails the parent when a branch fails under `all`, naming the branch, once the others settle", async () => {
    const kit = createEngineTestKit({ config: { retries: 0 } });
    try {
      const agent = kit.scriptedAgent([
        { role: "planner", output: { $status: "ready", plan: "p" } },
        { role: "reviewer", branch: "security", reply: "no frontmatter" },
        { role: "reviewer", branch: "*", output: { $status: "approve", verdict: "ok" } },
      ]);
      const parent = await kit.startThread({ workflow: REVIEW });
      const step = kit.stepOptions(parent.id, { defaultAgent: agent, parallel: 1 });
      await stepThread(step);
      const round = await stepUntilDone({ ...step, maxSteps: Number.POSITIVE_INFINITY });
      expect(round.error).toBeInstanceOf(BranchFailedError);
      expect(round.record.status).toBe("failed");
      expect(round.record.failure?.code).toBe("branch-failed");
      expect(round.record.failure?.message).toContain("branch security");
      // The error names the branch, whichever step saw the parent fail (here the branch's own step settled it).
      expect((round.error as BranchFailedError).data).toMatchObject({ branch: "security", status: "failed" });
    } finally {
      kit.cleanup();
    }
  });

  it("cancels a parent's unfinished branches with it", async () => {
    const kit = createEngineTestKit();
    try {
      const parent = await kit.startThread({ workflow: REVIEW });
      await stepThread(kit.stepOptions(parent.id, { defaultAgent: REVIEW_AGENT }));
      const result = await cancelWithBranches({
        store: kit.store,
        home: kit.home,
        threadId: parent.id,
        host: "engine-test",
        now: kit.now,
      });
      expect(result.record.status).toBe("cancelled");
      expect(result.branches).toHaveLength(3);
      for (const branch of await branchesOf(kit.store, parent)) expect(branch.status).toBe("cancelled");
    } finally {
      kit.cleanup();
    }
  });

  it("counts branches' steps against the parent's budget and suspends the parent at its limit", async () => {
    const kit = createEngineTestKit();
    try {
      const parent = await kit.startThread({ workflow: REVIEW, limits: { maxSteps: 3 } });
      const step = kit.stepOptions(parent.id, { defaultAgent: REVIEW_AGENT, parallel: 1 });
      const done = await stepUntilDone({ ...step, maxSteps: Number.POSITIVE_INFINITY });
      expect(done.record).toMatchObject({ status: "suspended", reason: "budget" });
      expect(done.record.budget?.exceeded).toBe("maxSteps");
      const statuses = (await branchesOf(kit.store, parent)).map((branch) => branch.status);
      expect(statuses.filter((status) => status === "ended")).toHaveLength(2);
      const resumed = await stepUntilDone({
        ...step,
        maxSteps: Number.POSITIVE_INFINITY,
        resume: { limits: { maxSteps: 10 } },
      });
      expect(resumed.error).toBeUndefined();
      expect(resumed.record.status).toBe("ended");
    } finally {
      kit.cleanup();
    }
  });

  it("never starts more branch steps at once than the parent's budget has left", async () => {
    const kit = createEngineTestKit();
    try {
      // Three branches stepped four at a time against a budget with two steps left after the fan-out step.
      const parent = await kit.startThread({ workflow: REVIEW, limits: { maxSteps: 3 } });
      const step = kit.stepOptions(parent.id, { defaultAgent: REVIEW_AGENT, parallel: 4 });
      const done = await stepUntilDone({ ...step, maxSteps: Number.POSITIVE_INFINITY });
      expect(done.record).toMatchObject({ status: "suspended", reason: "budget" });
      const statuses = (await branchesOf(kit.store, parent)).map((branch) => branch.status);
      expect(statuses.filter((status) => status === "ended")).toHaveLength(2);
      expect(statuses.filter((status) => status === "active")).toHaveLength(1);
    } finally {
      kit.cleanup();
    }
  });

  it("forks one branch with another reply as a counterfactual that a fork of the parent joins", async () => {
    const kit = createEngineTestKit();
    try {
      const parent = await kit.startThread({ workflow: REVIEW });
      const step = kit.stepOptions(parent.id, { defaultAgent: REVIEW_AGENT });
      const done = await stepUntilDone({ ...step, maxSteps: Number.POSITIVE_INFINITY });
      const [security, speed, style] = await branchesOf(kit.store, done.record);
      const fork = await kit.fork((security as ThreadRecord).head, {
        replacementReply: { text: "---\n$status: reject\nverdict: leaky\n---\nTokens leak.\n", file: "reply.md" },
      });
      expect(fork).toMatchObject({ status: "ended", outcome: { role: "reviewer", status: "reject", edge: null } });
      const parentFork = (await kit.store.refs.getThread(fork.branchOf?.thread as string)) as ThreadRecord;
      expect(parentFork).toMatchObject({ status: "waiting", next: "synthesizer", stepCount: 1 });
      expect(parentFork.forkedFrom).toMatchObject({ thread: parent.id, step: 1 });
      const links = await kit.store.refs.listBranches(parentFork.id);
      expect(links.map((link) => link.thread)).toEqual([
        fork.id,
        (speed as ThreadRecord).id,
        (style as ThreadRecord).id,
      ]);
      const joined = await stepUntilDone({
        ...kit.stepOptions(parentFork.id, { defaultAgent: REVIEW_AGENT }),
        maxSteps: Number.POSITIVE_INFINITY,
      });
      expect(joined.record.status).toBe("ended");
      expect((await headNode(kit.store, joined.record)).edgePrompt).toContain("security=leaky speed=fast style=tidy");
    } finally {
      kit.cleanup();
    }
  });

  it("gives a fork of the parent at its fan-out step fresh branches of its own", async () => {
    const kit = createEngineTestKit();
    try {
      const parent = await kit.startThread({ workflow: REVIEW });
      const step = kit.stepOptions(parent.id, { defaultAgent: REVIEW_AGENT });
      const first = await stepThread(step);
      const fork = await kit.fork(first.record.head);
      expect(fork).toMatchObject({ status: "waiting", next: "synthesizer" });
      const done = await stepUntilDone({
        ...kit.stepOptions(fork.id, { defaultAgent: REVIEW_AGENT }),
        maxSteps: Number.POSITIVE_INFINITY,
      });
      expect(done.record.status).toBe("ended");
      const mine = await kit.store.refs.listBranches(fork.id);
      const theirs = await kit.store.refs.listBranches(parent.id);
      expect(mine).toHaveLength(3);
      expect(mine.map((link) => link.thread).some((id) => theirs.some((link) => link.thread === id))).toBe(false);
    } finally {
      kit.cleanup();
    }
  });

  for (const [policy, expected] of [
    ["any", { parent: "active", statuses: ["ended", "cancelled", "cancelled"] }],
    ["{ quorum: 2 }", { parent: "active", statuses: ["ended", "ended", "cancelled"] }],
    ["all\n        failFast: true", { parent: "failed", statuses: ["failed", "cancelled", "cancelled"] }],
  ] as const) {
    it(`applies policy ${policy.split("\n")[0]}${policy.includes("failFast") ? " with failFast" : ""}, cancelling the branches the join no longer needs`, async () => {
      const kit = createEngineTestKit({ config: { retries: 0 } });
      try {
        const source = readFileSync(REVIEW, "utf8").replace("policy: all", `policy: ${policy}`);
        const file = join(kit.home, "review-policy.yaml");
        writeFileSync(file, source);
        const agent = kit.scriptedAgent([
          { role: "planner", output: { $status: "ready", plan: "p" } },
          {
            role: "reviewer",
            branch: "security",
            ...(policy.includes("failFast") ? { reply: "no frontmatter" } : { output: { $status: "approve" } }),
          },
          { role: "reviewer", branch: "*", output: { $status: "approve" } },
        ]);
        const parent = await kit.startThread({ workflow: file });
        const step = kit.stepOptions(parent.id, { defaultAgent: agent, parallel: 1 });
        await stepThread(step);
        // One branch at a time, so the policy decides after each.
        const rounds = policy.startsWith("{") ? 2 : 1;
        let last: Awaited<ReturnType<typeof stepThread>> | null = null;
        let failed: unknown = null;
        for (let round = 0; round < rounds; round++) {
          last = await stepThread(step).catch((error) => {
            failed = error;
            return null;
          });
          // The branch steps that failed the join come back with the failure.
          if (last?.kind === "branches" && last.failure !== undefined) failed = last.failure;
        }
        const record = (await kit.store.refs.getThread(parent.id)) as ThreadRecord;
        expect(record.status).toBe(expected.parent);
        if (expected.parent === "failed") expect(failed).toBeInstanceOf(BranchFailedError);
        else expect(last?.kind).toBe("branches");
        expect((await branchesOf(kit.store, record)).map((branch) => branch.status)).toEqual([...expected.statuses]);
      } finally {
        kit.cleanup();
      }
    });
  }

  it("keeps counting a joined fan-out's branch steps against the parent's step limit", async () => {
    const kit = createEngineTestKit();
    try {
      // The planner and three branches make four steps: the join would be the fifth.
      const parent = await kit.startThread({ workflow: REVIEW, limits: { maxSteps: 4 } });
      const step = kit.stepOptions(parent.id, { defaultAgent: REVIEW_AGENT });
      const done = await stepUntilDone({ ...step, maxSteps: Number.POSITIVE_INFINITY });
      expect(done.record).toMatchObject({ status: "suspended", reason: "budget", stepCount: 1 });
      expect((await branchesOf(kit.store, done.record)).map((branch) => branch.status)).toEqual([
        "ended",
        "ended",
        "ended",
      ]);
      const resumed = await stepUntilDone({
        ...step,
        maxSteps: Number.POSITIVE_INFINITY,
        resume: { limits: { maxSteps: 5 } },
      });
      expect(resumed.error).toBeUndefined();
      expect(resumed.record).toMatchObject({ status: "ended", stepCount: 2 });
    } finally {
      kit.cleanup();
    }
  });
});
