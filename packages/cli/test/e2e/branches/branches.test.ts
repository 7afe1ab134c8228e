import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BranchLink, Store } from "@uwf/cas";
import {
  type JoinedBranchesNode,
  joinedBranchesNodeSchema,
  listResultSchema,
  logResultSchema,
  type ShownThread,
  startResultSchema,
  stepResultSchema,
  type ThreadRecord,
  type ThreadStepNode,
  threadStepNodeSchema,
} from "@uwf/protocol";
import { stringify } from "yaml";
import { getNode } from "../../helpers/cas-nodes.ts";
import { readHomeStore } from "../../helpers/read-home-store.ts";
import { BACKENDS, useBackendEnv } from "../../helpers/store-backends.ts";
import { createTempHome, FIXTURES, type TempHome } from "../../helpers/temp-home.ts";

/**
 * Issue #31's "Must show" for branches, through the real `uwf` on both backends: fan-outs in both graph
 * styles run to their end, every join policy, a branch suspended and resumed alone, a crash between a
 * fan-out step and its branches, budgets across branches, a counterfactual fork of one branch, cancel.
 */

const WORKFLOWS = join(FIXTURES, "workflows");
/** Static branches, `$status` map style. */
const REVIEW = join(WORKFLOWS, "fan-out-review.yaml");
/** Static branches, list style; reviewers may ask (`$SUSPEND`). */
const REVIEW_LIST = join(WORKFLOWS, "fan-out-review-list.yaml");
/** foreach, list style (maxConcurrent 2). */
const FILES = join(WORKFLOWS, "fan-out-files.yaml");
/** foreach, `$status` map style. */
const FILES_MAP = join(WORKFLOWS, "fan-out-files-map.yaml");
const scripted = (workflow: string) => `scripted:${workflow.replace(/\.yaml$/, ".scenario.yaml")}`;

const backendEnv = useBackendEnv();

let temp: TempHome;
let storeEnv: Record<string, string>;

/** Reads the home's store beside the uwf processes: branch links are not printed by any command. */
function readStore<Result>(read: (store: Store) => Promise<Result>): Promise<Result> {
  return readHomeStore(temp.home, storeEnv, read);
}

function links(parent: string): Promise<BranchLink[]> {
  return readStore((store) => store.refs.listBranches(parent));
}

/** Every thread whose record says it is a branch of `parent`, in link order when linked. */
async function branchThreads(parent: string): Promise<ThreadRecord[]> {
  const listed = listResultSchema.parse((await temp.uwf(["list", "--json", "--limit", "1000"])).json());
  const order = (await links(parent)).map((link) => link.thread);
  return (listed.threads as ThreadRecord[])
    .filter((thread) => thread.branchOf?.thread === parent)
    .sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
}

async function show(thread: string): Promise<ShownThread> {
  return temp.showThread(thread);
}

/** A node read back with `uwf cas get ADDRESS --json`. */

async function stepNode(address: string): Promise<ThreadStepNode> {
  return threadStepNodeSchema.parse(await getNode(temp, address));
}

/** The branches/1 node the parent's join step (its head) recorded. */
async function joinedOf(parent: string): Promise<{ step: ThreadStepNode; joined: JoinedBranchesNode }> {
  const step = await stepNode((await show(parent)).head);
  expect(step.joined).toBeString();
  return { step, joined: joinedBranchesNodeSchema.parse(await getNode(temp, step.joined as string)) };
}

async function start(workflow: string, extra: string[] = []): Promise<string> {
  const started = await temp.uwf(["start", workflow, "-p", "Add a cache", "--json", ...extra]);
  if (started.exitCode !== 0) throw new Error(`uwf start exited ${started.exitCode}: ${started.stderr}`);
  return startResultSchema.parse(started.json()).thread;
}

/** A copy of `workflow` in the work folder with some text replaced (another join policy, say). */
function variant(workflow: string, name: string, replace: [string, string][]): string {
  let source = readFileSync(workflow, "utf8");
  for (const [from, to] of replace) {
    if (!source.includes(from)) throw new Error(`${workflow} has no ${from}`);
    source = source.replace(from, to);
  }
  const file = join(temp.work, `${name}.yaml`);
  writeFileSync(file, source);
  return file;
}

/** A scenario file in the work folder: `scripted:FILE` for --agent. */
function scenario(name: string, steps: Record<string, unknown>[]): string {
  const file = join(temp.work, `${name}.scenario.yaml`);
  writeFileSync(file, stringify({ steps }));
  return `scripted:${file}`;
}

/** The parent's two roles and the branches' role, in the review fan-outs and in the file fan-outs. */
const REVIEWERS = { roles: ["planner", "synthesizer"], branchRole: "reviewer" };
const FIXERS = { roles: ["splitter", "reducer"], branchRole: "fixer" };

const PLANNER = { role: "planner", output: { plan: "cache the users" }, body: "Plan." };
const SYNTHESIZER = { role: "synthesizer", output: { decision: "go" }, body: "Go." };
const approve = (branch: string, verdict = "ok") => ({
  role: "reviewer",
  branch,
  output: { $status: "approve", verdict },
  body: `Approved (${verdict}).`,
});

for (const backend of BACKENDS) {
  describe(`branches on ${backend}`, () => {
    beforeEach(() => {
      storeEnv = backendEnv(backend);
      temp = createTempHome({ env: storeEnv });
    });
    afterEach(() => temp.cleanup());

    describe("fan-outs run to their end with `uwf run`", () => {
      for (const { workflow, style, keys, roles, branchRole, prompt } of [
        {
          workflow: REVIEW,
          style: "static branches in the $status-map style",
          keys: ["security", "speed", "style"],
          ...REVIEWERS,
          prompt: "security approve, speed approve, style approve",
        },
        {
          workflow: REVIEW_LIST,
          style: "static branches in the list style",
          keys: ["security", "speed", "style"],
          ...REVIEWERS,
          prompt: "Merge the reviews: security=ended/safe speed=ended/fast style=ended/tidy",
        },
        {
          workflow: FILES,
          style: "foreach in the list style",
          keys: ["0", "1", "2"],
          ...FIXERS,
          prompt: "- 0: ended, fixed the import\n- 1: ended, fixed the import\n- 2: ended, fixed the import",
        },
        {
          workflow: FILES_MAP,
          style: "foreach in the $status-map style",
          keys: ["0", "1", "2", "3"],
          ...FIXERS,
          prompt: "0=ended:import fixed 1=ended:import fixed 2=ended:import fixed 3=ended:import fixed",
        },
      ]) {
        it(`${style}: one child thread per branch, joined in order, the join's node lists them`, async () => {
          const ran = await temp.uwf(["run", workflow, "-p", "Add a cache", "--agent", scripted(workflow), "--json"]);
          expect(ran.stderr).toBe("");
          expect(ran.exitCode).toBe(0);
          const result = stepResultSchema.parse(ran.json());
          expect(result.status).toBe("ended");
          // The parent's own chain is its two steps: the branch steps are on the branches' chains.
          expect(result.steps.map((step) => step.role)).toEqual(roles);
          const parent = result.thread;
          const fanOutStep = result.steps[0]?.address as string;

          const branches = await branchThreads(parent);
          expect(branches.map((branch) => branch.branchOf?.branch)).toEqual(keys);
          for (const branch of branches) {
            expect(branch).toMatchObject({ status: "ended", stepCount: 2, forkedFrom: null });
            expect(branch.branchOf).toMatchObject({ thread: parent, step: 1, address: fanOutStep });
            const log = logResultSchema.parse((await temp.uwf(["log", branch.id, "--json"])).json());
            // A role branch shares the parent's history up to the fan-out step, then has its own one step.
            expect(log.steps.map((step) => step.role)).toEqual([roles[0] as string, branchRole]);
            expect(log.steps[0]?.address).toBe(fanOutStep);
          }
          expect((await links(parent)).map((link) => [link.key, link.step])).toEqual(keys.map((key) => [key, 1]));

          const { step, joined } = await joinedOf(parent);
          expect(step.role).toBe(roles[1] as string);
          expect(step.edgePrompt).toContain(prompt);
          expect(step.edgePrompt).toContain("Branch results");
          expect(joined.fanOut).toBe(fanOutStep);
          expect(joined.results.map((entry) => [entry.key, entry.status, entry.thread])).toEqual(
            branches.map((branch) => [branch.branchOf?.branch as string, "ended", branch.id]),
          );
          for (const [index, entry] of joined.results.entries()) {
            expect(entry.head).toBe((branches[index] as ThreadRecord).head);
          }
          // The parent's usage took in its branches' at the join (zero here: the scripted agent reports none).
          expect((await show(parent)).usage).toMatchObject({ inputTokens: 0, outputTokens: 0, costUsd: 0 });
        });
      }

      it("workflow branches: each is a whole run of a registered workflow, started with its rendered inputs", async () => {
        expect((await temp.uwf(["workflow", "add", join(WORKFLOWS, "fix-one-file.yaml")])).exitCode).toBe(0);
        const workflow = join(WORKFLOWS, "fan-out-workflows.yaml");
        const ran = await temp.uwf(["run", workflow, "-p", "Tidy up", "--agent", scripted(workflow), "--json"]);
        expect(ran.stderr).toBe("");
        expect(ran.exitCode).toBe(0);
        const parent = stepResultSchema.parse(ran.json()).thread;
        const branches = await branchThreads(parent);
        expect(branches.map((branch) => [branch.branchOf?.branch, branch.branchOf?.role, branch.workflow])).toEqual([
          ["0", null, "fix-one-file"],
          ["1", null, "fix-one-file"],
        ]);
        for (const [index, branch] of branches.entries()) {
          const shown = await show(branch.id);
          expect(shown).toMatchObject({ status: "ended", stepCount: 2, outcome: { role: "checker", status: "ok" } });
          expect(shown.inputs).toEqual({ path: `src/${index === 0 ? "a" : "b"}.ts` });
          const log = logResultSchema.parse((await temp.uwf(["log", branch.id, "--json"])).json());
          expect(log.steps.map((step) => step.role)).toEqual(["fixer", "checker"]);
        }
        const { step, joined } = await joinedOf(parent);
        expect(step.edgePrompt).toContain("Summarise: 0=ok 1=ok");
        expect(joined.results.map((entry) => entry.status)).toEqual(["ended", "ended"]);
      });

      it("the parent's usage takes in its branches' at the join, and the join's node keeps each branch's", async () => {
        temp.writeConfig(
          ["agents:", "  usage:", "    command: sh", `    args: ["${join(FIXTURES, "agents/fan-out-usage.sh")}"]`].join(
            "\n",
          ),
        );
        const ran = await temp.uwf(["run", FILES, "-p", "Fix them", "--agent", "usage", "--json"]);
        expect(ran.exitCode).toBe(0);
        const parent = stepResultSchema.parse(ran.json()).thread;
        // Two steps of its own and three branch steps, 100 + 10 tokens and $0.001 each.
        const shown = await show(parent);
        expect(shown.usage).toMatchObject({ inputTokens: 500, outputTokens: 50 });
        expect(shown.usage.costUsd).toBeCloseTo(0.005, 6);
        const { joined } = await joinedOf(parent);
        for (const entry of joined.results) expect(entry.usage).toMatchObject({ inputTokens: 100, outputTokens: 10 });
        for (const branch of await branchThreads(parent)) {
          expect(branch.usage).toMatchObject({ inputTokens: 100, outputTokens: 10 });
        }
      });

      it("a list-style join routes on `branches` in a JSONata condition", async () => {
        const agent = scenario("one-rejects", [
          PLANNER,
          SYNTHESIZER,
          approve("security"),
          { role: "reviewer", branch: "speed", output: { $status: "reject", verdict: "slow" } },
          approve("style"),
        ]);
        const ran = await temp.uwf(["run", REVIEW_LIST, "-p", "x", "--agent", agent, "--json"]);
        expect(ran.exitCode).toBe(0);
        const parent = stepResultSchema.parse(ran.json()).thread;
        // everyone-approves is false: the join's reply took the second edge.
        expect((await show(parent)).outcome).toMatchObject({
          role: "synthesizer",
          edge: { index: 1, condition: null },
        });
      });
    });

    describe("join policies", () => {
      /** Fans out with `uwf step PARENT`, then steps the branches one at a time to the end. */
      async function runOneAtATime(workflow: string, agent: string) {
        const parent = await start(workflow);
        const fanned = await temp.uwf(["step", parent, "--agent", agent, "--json"]);
        expect(fanned.exitCode).toBe(0);
        expect((await show(parent)).status).toBe("waiting");
        const stepped = await temp.uwf(["step", parent, "--all", "--parallel", "1", "--agent", agent, "--json"]);
        return { parent, stepped, branches: await branchThreads(parent) };
      }

      it("all-settled: a failed branch is joined with its status and error", async () => {
        temp.writeConfig("retries: 0\n");
        const workflow = variant(REVIEW_LIST, "settled", [["policy: all", "policy: all-settled"]]);
        const agent = scenario("settled", [
          PLANNER,
          SYNTHESIZER,
          { role: "reviewer", branch: "security", reply: "no frontmatter at all" },
          approve("*"),
        ]);
        const { parent, stepped, branches } = await runOneAtATime(workflow, agent);
        expect(stepped.exitCode).toBe(0);
        expect((await show(parent)).status).toBe("ended");
        expect(branches.map((branch) => branch.status)).toEqual(["failed", "ended", "ended"]);
        const { step, joined } = await joinedOf(parent);
        expect(joined.results.map((entry) => entry.status)).toEqual(["failed", "ended", "ended"]);
        expect(joined.results[0]?.error).toBeTruthy();
        expect(step.edgePrompt).toContain("security=failed/");
      });

      it("any: the first branch that ends wins, the others are cancelled", async () => {
        const workflow = variant(REVIEW_LIST, "any", [["policy: all", "policy: any"]]);
        const agent = scenario("any", [PLANNER, SYNTHESIZER, approve("*")]);
        const { parent, stepped, branches } = await runOneAtATime(workflow, agent);
        expect(stepped.exitCode).toBe(0);
        expect((await show(parent)).status).toBe("ended");
        expect(branches.map((branch) => branch.status)).toEqual(["ended", "cancelled", "cancelled"]);
        const { joined } = await joinedOf(parent);
        expect(joined.results.map((entry) => entry.status)).toEqual(["ended", "cancelled", "cancelled"]);
        // The cancelled ones never ran a step.
        for (const branch of branches.slice(1)) expect(branch.stepCount).toBe(1);
      });

      it("quorum 2: two ended branches join, the third is cancelled", async () => {
        const workflow = variant(REVIEW_LIST, "quorum", [["policy: all", "policy: { quorum: 2 }"]]);
        const agent = scenario("quorum", [PLANNER, SYNTHESIZER, approve("*")]);
        const { parent, stepped, branches } = await runOneAtATime(workflow, agent);
        expect(stepped.exitCode).toBe(0);
        expect((await show(parent)).status).toBe("ended");
        expect(branches.map((branch) => branch.status)).toEqual(["ended", "ended", "cancelled"]);
      });

      it("all: a failed branch fails the parent with branch-failed once the others settle", async () => {
        temp.writeConfig("retries: 0\n");
        const agent = scenario("all-fails", [
          PLANNER,
          SYNTHESIZER,
          approve("security"),
          { role: "reviewer", branch: "speed", reply: "no frontmatter at all" },
          approve("style"),
        ]);
        const { parent, stepped, branches } = await runOneAtATime(REVIEW_LIST, agent);
        expect(stepped.exitCode).toBe(1);
        // `--parallel` makes it a batch: one entry for the parent, its error naming the branch.
        expect(stepped.json()).toMatchObject({
          exitCode: 1,
          threads: [{ thread: parent, error: { code: "branch-failed", data: { branch: "speed", status: "failed" } } }],
        });
        expect(branches.map((branch) => branch.status)).toEqual(["ended", "failed", "ended"]);
        const shown = await show(parent);
        expect(shown.status).toBe("failed");
        expect(shown.failure).toMatchObject({ code: "branch-failed" });
        expect(shown.failure?.message).toContain("branch speed");
      });

      it("all with failFast: the failing branch cancels the rest at once; `uwf run` exits 1", async () => {
        temp.writeConfig("retries: 0\n");
        const workflow = variant(REVIEW_LIST, "fail-fast", [["policy: all", "policy: all\n        failFast: true"]]);
        const agent = scenario("fail-fast", [
          PLANNER,
          SYNTHESIZER,
          { role: "reviewer", branch: "security", reply: "no frontmatter at all" },
          approve("*"),
        ]);
        const { parent, stepped, branches } = await runOneAtATime(workflow, agent);
        expect(stepped.exitCode).toBe(1);
        expect(branches.map((branch) => branch.status)).toEqual(["failed", "cancelled", "cancelled"]);
        const shown = await show(parent);
        expect(shown).toMatchObject({ status: "failed", failure: { code: "branch-failed" } });
        expect(shown.failure?.message).toContain("branch security");

        const ran = await temp.uwf(["run", workflow, "-p", "x", "--agent", agent]);
        expect(ran.exitCode).toBe(1);
        expect(ran.stderr).toContain("branch security");
      });
    });

    it("a branch that suspends is resumed alone while its siblings finish; the parent waits, then joins", async () => {
      const agent = scenario("suspend", [
        PLANNER,
        SYNTHESIZER,
        { role: "reviewer", branch: "security", output: { $status: "$SUSPEND", reason: "Which threat model?" } },
        approve("security", "stride-clean"),
        approve("*"),
      ]);
      const ran = await temp.uwf(["run", REVIEW_LIST, "-p", "x", "--agent", agent, "--json"]);
      const parent = stepResultSchema.parse(ran.json()).thread;
      expect((await show(parent)).status).toBe("waiting");
      const branches = await branchThreads(parent);
      expect(branches.map((branch) => branch.status)).toEqual(["suspended", "ended", "ended"]);
      const security = branches[0] as ThreadRecord;
      expect(security.reason).toBe("Which threat model?");
      // `uwf list` shows the branch waiting for an answer.
      const suspended = listResultSchema.parse((await temp.uwf(["list", "--status", "suspended", "--json"])).json());
      expect(suspended.threads.map((thread) => thread.id)).toEqual([security.id]);
      // Stepping the parent cannot get past its suspended branch: it still waits, running nothing.
      const blocked = await temp.uwf(["step", parent, "--all", "--agent", agent, "--json"]);
      expect(blocked.json()).toMatchObject({ status: "waiting", steps: [] });
      expect((await branchThreads(parent)).map((branch) => branch.status)).toEqual(["suspended", "ended", "ended"]);

      const resumed = await temp.uwf(["resume", security.id, "-p", "STRIDE", "--agent", agent, "--json"]);
      expect(resumed.exitCode).toBe(0);
      expect((await show(security.id)).status).toBe("ended");
      const joined = await temp.uwf(["step", parent, "--all", "--agent", agent, "--json"]);
      expect(joined.exitCode).toBe(0);
      expect((await show(parent)).status).toBe("ended");
      const { step } = await joinedOf(parent);
      expect(step.edgePrompt).toContain("security=ended/stride-clean speed=ended/ok style=ended/ok");
      // Each sibling ran its one step once: the resume did not re-run them.
      for (const branch of (await branchThreads(parent)).slice(1)) expect(branch.stepCount).toBe(2);
    });

    it("a SIGKILL after the fan-out step, before its branches exist, is completed by the next step without duplicates", async () => {
      const agent = scripted(REVIEW);
      const parent = await start(REVIEW);
      const killed = await temp.uwf(["step", parent, "--agent", agent], {
        env: { UWF_CRASH_AT: "after-fan-out-step" },
      });
      expect(killed.exitCode).toBe(137);
      expect(await show(parent)).toMatchObject({ status: "waiting", stepCount: 1 });
      expect(await links(parent)).toEqual([]);
      expect(await branchThreads(parent)).toEqual([]);

      // Two commands touch the parent at once: still one branch per key.
      const [a, b] = await Promise.all([
        temp.uwf(["step", parent, "--all", "--agent", agent, "--json"]),
        temp.uwf(["show", parent, "--json"]),
      ]);
      expect(b.exitCode).toBe(0);
      expect(a.exitCode).toBe(0);
      expect((await show(parent)).status).toBe("ended");
      expect((await links(parent)).map((link) => link.key)).toEqual(["security", "speed", "style"]);
      const branches = await branchThreads(parent);
      expect(branches).toHaveLength(3);
      expect(new Set(branches.map((branch) => branch.id)).size).toBe(3);
      expect((await joinedOf(parent)).joined.results).toHaveLength(3);
    });

    it("budgets: branch steps count against the parent's --max-steps; resume with a higher limit goes on to the end", async () => {
      const agent = scripted(REVIEW_LIST);
      const ran = await temp.uwf(["run", REVIEW_LIST, "-p", "x", "--max-steps", "3", "--agent", agent, "--json"]);
      expect(ran.exitCode).toBe(20);
      const parent = stepResultSchema.parse(ran.json()).thread;
      const shown = await show(parent);
      expect(shown).toMatchObject({ status: "suspended", reason: "budget" });
      expect(shown.budget?.exceeded).toBe("maxSteps");
      const statuses = (await branchThreads(parent)).map((branch) => branch.status);
      // The planner's step and two branch steps: the third branch never started.
      expect(statuses.filter((status) => status === "ended")).toHaveLength(2);
      expect(statuses.filter((status) => status === "active")).toHaveLength(1);

      const resumed = await temp.uwf(["resume", parent, "--max-steps", "10", "--all", "--agent", agent, "--json"]);
      expect(resumed.stderr).toBe("");
      expect(resumed.exitCode).toBe(0);
      expect((await show(parent)).status).toBe("ended");
      expect((await branchThreads(parent)).map((branch) => branch.status)).toEqual(["ended", "ended", "ended"]);
    });

    it("a counterfactual fork of one branch is joined by stepping its parent's fork; diff works between branches", async () => {
      const agent = scripted(REVIEW_LIST);
      const ran = await temp.uwf(["run", REVIEW_LIST, "-p", "x", "--agent", agent, "--json"]);
      expect(ran.exitCode).toBe(0);
      const parent = stepResultSchema.parse(ran.json()).thread;
      const [security, speed, style] = await branchThreads(parent);

      const diff = await temp.uwf(["diff", (security as ThreadRecord).id, (speed as ThreadRecord).id, "--json"]);
      expect(diff.exitCode).toBe(0);
      const text = await temp.uwf(["diff", (security as ThreadRecord).id, (speed as ThreadRecord).id]);
      expect(text.exitCode).toBe(0);
      expect(text.stdout).toContain("reviewer");

      const reply = join(temp.work, "reply.md");
      writeFileSync(reply, "---\n$status: reject\nverdict: leaky\n---\nTokens leak into the logs.\n");
      const forked = await temp.uwf(["fork", (security as ThreadRecord).head, "--output", reply, "--json"]);
      expect(forked.stderr).toBe("");
      expect(forked.exitCode).toBe(0);
      const forkId = (forked.json() as { thread?: string; threads?: string[] }).thread as string;
      const fork = await show(forkId);
      expect(fork).toMatchObject({ status: "ended", outcome: { role: "reviewer", status: "reject" } });
      const parentFork = fork.branchOf?.thread as string;
      expect(parentFork).not.toBe(parent);
      // Its branches have all ended: the parent's fork is settled at once, ready for its join.
      expect(await show(parentFork)).toMatchObject({
        status: "active",
        next: "synthesizer",
        forkedFrom: { thread: parent, step: 1 },
      });
      expect((await links(parentFork)).map((link) => link.thread)).toEqual([
        forkId,
        (speed as ThreadRecord).id,
        (style as ThreadRecord).id,
      ]);

      const joined = await temp.uwf(["step", parentFork, "--all", "--agent", agent, "--json"]);
      expect(joined.exitCode).toBe(0);
      expect((await show(parentFork)).status).toBe("ended");
      const { step } = await joinedOf(parentFork);
      expect(step.edgePrompt).toContain("security=ended/leaky speed=ended/fast style=ended/tidy");
      // The original is untouched.
      expect((await joinedOf(parent)).step.edgePrompt).toContain("security=ended/safe");
    });

    describe("cancel", () => {
      it("cancelling a waiting parent cancels its branches", async () => {
        const parent = await start(REVIEW);
        expect((await temp.uwf(["step", parent, "--agent", scripted(REVIEW)])).exitCode).toBe(0);
        const cancelled = await temp.uwf(["cancel", parent]);
        expect(cancelled.exitCode).toBe(0);
        expect((await show(parent)).status).toBe("cancelled");
        expect((await branchThreads(parent)).map((branch) => branch.status)).toEqual([
          "cancelled",
          "cancelled",
          "cancelled",
        ]);
      });

      it("onCancel: abandon leaves the branches to go on", async () => {
        const workflow = variant(REVIEW, "abandon", [["      join:", "      onCancel: abandon\n      join:"]]);
        const parent = await start(workflow);
        expect((await temp.uwf(["step", parent, "--agent", scripted(REVIEW)])).exitCode).toBe(0);
        expect((await temp.uwf(["cancel", parent])).exitCode).toBe(0);
        expect((await show(parent)).status).toBe("cancelled");
        const branches = await branchThreads(parent);
        expect(branches.map((branch) => branch.status)).toEqual(["active", "active", "active"]);
        // An abandoned branch can still be stepped to its end on its own.
        const stepped = await temp.uwf(["step", (branches[0] as ThreadRecord).id, "--agent", scripted(REVIEW)]);
        expect(stepped.exitCode).toBe(0);
        expect((await show((branches[0] as ThreadRecord).id)).status).toBe("ended");
      });
    });
  });
}
