import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type BranchesJoinedEvent,
  type BranchesStartedEvent,
  type FamilyTreeNode,
  listResultSchema,
  logResultSchema,
  shownThreadSchema,
  stepResultSchema,
  treeResultSchema,
} from "@uwf/protocol";
import { parseEvents } from "../../helpers/cli-events.ts";
import { BACKENDS, useBackendEnv } from "../../helpers/store-backends.ts";
import { createTempHome, FIXTURES, type TempHome } from "../../helpers/temp-home.ts";

// What the user sees of branches: show, log, list, tree and the --jsonl events, on threads the real
// engine fanned out (fan-out-review.yaml: a planner, three reviewer branches, a synthesizer's join), on
// both backends: the home's own files and SQLite, and a PostgreSQL server (each test a store of its own).
const backendEnv = useBackendEnv();
let temp: TempHome;

const REVIEW = join(FIXTURES, "workflows/fan-out-review.yaml");
const FILES = join(FIXTURES, "workflows/fan-out-files.yaml");
const KEYS = ["security", "speed", "style"];

/** A scripted agent whose scenario (written into the temp home) plays the main sequence, then each branch's entries. */
function scenario(name: string, lines: readonly string[]): string {
  const file = join(temp.work, `${name}.scenario.yaml`);
  writeFileSync(file, ["steps:", ...lines.map((line) => `  - ${line}`), ""].join("\n"));
  return `scripted:${file}`;
}
const reviewAgent = () =>
  scenario("review", [
    "{ role: planner, output: { $status: ready, plan: add a cache }, body: Cache it. }",
    "{ role: synthesizer, output: { $status: done, decision: go }, body: Go. }",
    ...KEYS.map((key) => `{ role: reviewer, branch: ${key}, output: { verdict: approve, notes: fine }, body: Fine. }`),
  ]);
const filesAgent = () =>
  scenario("files", [
    "{ role: splitter, output: { files: [{ path: a.ts }, { path: b.ts }, { path: c.ts }] }, body: Three. }",
    "{ role: reducer, output: { summary: three fixed }, body: Done. }",
    "{ role: fixer, branch: '*', output: { fixed: true, summary: fixed }, body: Fixed. }",
  ]);

/** fan-out-review run to its end with --jsonl: the parent's id and the events. */
async function reviewed() {
  const run = await temp.uwf(["run", REVIEW, "-p", "Cache the user service", "--agent", reviewAgent(), "--jsonl"]);
  expect(run.stderr).toBe("");
  expect(run.exitCode).toBe(0);
  const events = parseEvents(run.stdout);
  const started = events.find((event) => event.type === "branches-started") as BranchesStartedEvent | undefined;
  if (started === undefined) throw new Error(`no branches-started event in:\n${run.stdout}`);
  return { parent: started.thread, events, started };
}

async function json<Value>(args: string[], schema: { parse(value: unknown): Value }): Promise<Value> {
  const run = await temp.uwf([...args, "--json"]);
  expect(run.stderr).toBe("");
  expect(run.exitCode).toBe(0);
  return schema.parse(run.json());
}

function flatten(nodes: readonly FamilyTreeNode[]): FamilyTreeNode[] {
  return nodes.flatMap((node) => [node, ...flatten(node.children)]);
}

for (const backend of BACKENDS)
  describe(`branches as the CLI shows them, on ${backend}`, () => {
    beforeEach(() => {
      temp = createTempHome({ env: backendEnv(backend) });
    });
    afterEach(() => temp.cleanup());

    it("prints branches-started and branches-joined, and names each branch's thread in its step-started", async () => {
      const { parent, events, started } = await reviewed();
      expect(started).toMatchObject({ step: 1, join: "synthesizer", policy: "all" });
      expect(started.branches.map((branch) => branch.key)).toEqual(KEYS);
      const branchThreads = started.branches.map((branch) => branch.thread);
      expect(new Set(branchThreads).size).toBe(3);
      expect(branchThreads).not.toContain(parent);

      const joined = events.find((event) => event.type === "branches-joined") as BranchesJoinedEvent | undefined;
      expect(joined).toMatchObject({ thread: parent, step: 1, cancelled: [] });
      expect(joined?.failure).toBeUndefined();
      expect(joined?.branches.map((branch) => [branch.key, branch.status])).toEqual(KEYS.map((key) => [key, "ended"]));

      // The reviewers' steps ran in the branches: their step-started events name the branch threads.
      const reviewerStarts = events.filter((event) => event.type === "step-started" && event.role === "reviewer");
      expect(reviewerStarts.map((event) => event.thread).sort()).toEqual([...branchThreads].sort());
      const reviewerSteps = events.filter((event) => event.type === "step-finished" && event.role === "reviewer");
      expect(reviewerSteps.map((event) => event.thread).sort()).toEqual([...branchThreads].sort());
      const parentStarts = events.filter((event) => event.type === "step-started" && event.thread === parent);
      expect(parentStarts.map((event) => (event.type === "step-started" ? event.role : ""))).toEqual([
        "planner",
        "synthesizer",
      ]);
      // In order: the fan-out before any branch step, the join before the synthesizer's step.
      const at = (match: (event: (typeof events)[number]) => boolean) => events.findIndex(match);
      expect(at((event) => event.type === "branches-started")).toBeLessThan(
        at((event) => event.type === "step-started" && event.role === "reviewer"),
      );
      expect(at((event) => event.type === "branches-joined")).toBeLessThan(
        at((event) => event.type === "step-started" && event.role === "synthesizer"),
      );
    });

    it("shows a parent's fan-out with its branches, and a branch's parent", async () => {
      const { parent, started } = await reviewed();
      const shown = await json(["show", parent], shownThreadSchema);
      expect(shown.status).toBe("ended");
      expect(shown.branches).toHaveLength(1);
      const [group] = shown.branches ?? [];
      expect(group).toMatchObject({ step: 1, kind: "parallel", join: "synthesizer", policy: "all", joinedAt: 2 });
      expect(
        group?.branches.map((branch) => [branch.key, branch.thread, branch.status, branch.role, branch.steps]),
      ).toEqual(started.branches.map((branch) => [branch.key, branch.thread, "ended", "reviewer", 1]));
      expect(group?.branches.every((branch) => branch.outcome?.role === "reviewer" && branch.error === null)).toBe(
        true,
      );

      const text = await temp.uwf(["show", parent]);
      expect(text.stdout).toContain(
        "step 1 fanned out into 3 branches (parallel), join synthesizer (all): joined at step 2",
      );
      for (const branch of started.branches)
        expect(text.stdout).toMatch(new RegExp(`${branch.key} +${branch.thread}  ended`));

      const security = started.branches[0]?.thread as string;
      const branchShown = await temp.uwf(["show", security]);
      expect(branchShown.stdout).toContain(`branch security of ${parent} at step 1 (role reviewer)`);
      expect(branchShown.stdout).toContain("(a branch's one reply)");
      const branchJson = await json(["show", security], shownThreadSchema);
      expect(branchJson.branchOf).toMatchObject({ thread: parent, step: 1, branch: "security", role: "reviewer" });
      expect(branchJson.branches).toBeUndefined();
    });

    it("marks the fan-out and join steps in log, with the branches under the fan-out", async () => {
      const { parent, started } = await reviewed();
      const log = await json(["log", parent], logResultSchema);
      expect(log.steps.map((step) => step.role)).toEqual(["planner", "synthesizer"]);
      expect(log.branches?.map((group) => [group.step, group.joinedAt, group.branches.length])).toEqual([[1, 2, 3]]);

      const text = (await temp.uwf(["log", parent])).stdout;
      const lines = text.split("\n");
      const fanOut = lines.findIndex((line) => line.includes("planner ⇉ fan-out (3)"));
      expect(fanOut).toBeGreaterThan(0);
      for (const [offset, branch] of started.branches.entries()) {
        expect(lines[fanOut + 1 + offset]).toContain(branch.thread);
        expect(lines[fanOut + 1 + offset]).toContain(`↳ ${branch.key}`);
      }
      expect(lines[fanOut + 4]).toContain("synthesizer ⇇ join of step 1");
    });

    it("lists branches marked with their parent, and finds them by status", async () => {
      const { parent, started } = await reviewed();
      const listed = await json(["list"], listResultSchema);
      const branches = listed.threads.filter((thread) => thread.branchOf !== undefined);
      expect(branches.map((thread) => thread.branchOf?.branch).sort()).toEqual(KEYS);
      expect(branches.every((thread) => thread.branchOf?.thread === parent)).toBe(true);

      const text = (await temp.uwf(["list", "--wide"])).stdout;
      expect(text).toContain("BRANCH OF");
      const security = started.branches[0]?.thread as string;
      const row = text.split("\n").find((line) => line.startsWith(security));
      expect(row).toContain(`↳ security of ${parent.slice(0, 8)} step 1`);
    });

    it("leaves a parent waiting after its fan-out step: step says so, list --status waiting finds it", async () => {
      const started = await temp.uwf(["start", REVIEW, "-p", "Cache the user service", "--json"]);
      const parent = (started.json() as { thread: string }).thread;
      const stepped = await temp.uwf(["step", parent, "--agent", reviewAgent()]);
      expect(stepped.exitCode).toBe(0);
      expect(stepped.stdout).toContain("#1 fanned out into 3 branches: security, speed, style (join synthesizer, all)");
      expect(stepped.stdout).toContain(
        `thread ${parent} waiting · waiting for 3 of 3 branches, then synthesizer joins them`,
      );

      expect((await json(["show", parent], shownThreadSchema)).status).toBe("waiting");
      const waiting = await json(["list", "--status", "waiting"], listResultSchema);
      expect(waiting.threads.map((thread) => thread.thread)).toEqual([parent]);
      const shown = await temp.uwf(["show", parent]);
      expect(shown.stdout).toContain("join synthesizer (all): pending");
    });

    it("draws branches under their step in tree, apart from forks, and a branch's tree is its parent's", async () => {
      const { parent, started } = await reviewed();
      const log = await json(["log", parent], logResultSchema);
      const fork = await temp.uwf(["fork", log.steps[1]?.address as string, "--json"]);
      expect(fork.exitCode).toBe(0);
      const forkId = (fork.json() as { thread: string }).thread;

      const tree = await json(["tree", parent], treeResultSchema);
      const [root] = tree.roots;
      expect(root?.thread).toBe(parent);
      expect(root?.children.map((child) => [child.kind, child.branchedAt, child.branchOf?.branch ?? null])).toEqual([
        ["branch", 1, "security"],
        ["branch", 1, "speed"],
        ["branch", 1, "style"],
        ["fork", 2, null],
      ]);
      expect(root?.children[3]?.thread).toBe(forkId);

      const security = started.branches[0]?.thread as string;
      const ofBranch = await json(["tree", security], treeResultSchema);
      expect(ofBranch.thread).toBe(security);
      expect(ofBranch.roots[0]?.thread).toBe(parent);
      expect(flatten(ofBranch.roots).map((node) => node.thread)).toContain(security);

      const text = (await temp.uwf(["tree", parent])).stdout;
      expect(text).toContain(`├─ step 1 ⇉ branch security: ${security}  ended  2 steps`);
      expect(text).toContain(`└─ step 2: ${forkId}`);
      const mermaid = (await temp.uwf(["tree", parent, "--mermaid"])).stdout;
      expect(mermaid).toContain(`T_${parent} ==>|"step 1 ⇉ branch security"| T_${security}`);
      expect(mermaid).toContain(`T_${parent} -->|"step 2"| T_${forkId}`);
    });

    it("places workflow branches (threads of their own start node) under their parent's step, in show and tree", async () => {
      expect((await temp.uwf(["workflow", "add", join(FIXTURES, "workflows/linear.yaml")])).exitCode).toBe(0);
      const workflow = join(temp.work, "fan-out-linear.yaml");
      writeFileSync(
        workflow,
        [
          "name: fan-out-linear",
          "roles:",
          "  splitter:",
          "    goal: Split the work.",
          "    frontmatter: { type: object, properties: { items: { type: array, items: { type: string } } }, required: [items] }",
          "  reducer: { goal: Sum up. }",
          "graph:",
          '  $START: [ { role: splitter, prompt: "Split: {{ start.prompt }}" } ]',
          "  splitter:",
          "    - foreach: items",
          "      as: item",
          '      branch: { workflow: linear, prompt: "Do {{ item }}" }',
          "      join: { role: reducer, policy: all, prompt: Sum up. }",
          "  reducer: [ { role: $END, prompt: Done. } ]",
          "",
        ].join("\n"),
      );
      const agent = scenario("linear-branches", [
        "{ role: splitter, output: { items: [a, b] }, body: Two. }",
        "{ role: reducer, output: {}, body: Summed. }",
        "{ role: planner, branch: '*', output: { plan: do it }, body: Plan. }",
        "{ role: doer, branch: '*', output: { done: true }, body: Done. }",
      ]);
      const run = await temp.uwf(["run", workflow, "-p", "go", "--agent", agent, "--json"]);
      expect(run.stderr).toBe("");
      expect(run.exitCode).toBe(0);
      const parent = stepResultSchema.parse(run.json()).thread;
      const [group] = (await json(["show", parent], shownThreadSchema)).branches ?? [];
      expect(
        group?.branches.map((branch) => [branch.key, branch.role, branch.workflow, branch.status, branch.steps]),
      ).toEqual([
        ["0", null, "linear", "ended", 2],
        ["1", null, "linear", "ended", 2],
      ]);
      const branches = group?.branches.map((branch) => branch.thread) ?? [];

      const tree = await json(["tree", parent], treeResultSchema);
      expect(tree.roots.map((root) => root.thread)).toEqual([parent]);
      expect(tree.roots[0]?.children.map((child) => [child.thread, child.kind, child.branchedAt])).toEqual(
        branches.map((thread) => [thread, "branch", 1]),
      );
      const ofBranch = await json(["tree", branches[1] as string], treeResultSchema);
      expect(ofBranch.roots[0]?.thread).toBe(parent);
      expect(ofBranch.workflow).toBe("fan-out-linear");
      const text = (await temp.uwf(["show", branches[0] as string])).stdout;
      expect(text).toContain(`branch 0 of ${parent} at step 1`);
      expect(text).not.toContain("(role ");
    });

    it("prints each branch's step after the branch's id, in text", async () => {
      const run = await temp.uwf(["run", REVIEW, "-p", "Cache the user service", "--agent", reviewAgent()]);
      expect(run.exitCode).toBe(0);
      const lines = run.stdout.split("\n");
      const branchLines = lines.filter((line) => / #2 reviewer /.test(line));
      expect(branchLines).toHaveLength(3);
      for (const line of branchLines) expect(line).toMatch(/^[0-9A-Z]{26} #2 reviewer /);
      expect(lines.indexOf(branchLines[2] as string)).toBeLessThan(
        lines.findIndex((line) => line.startsWith("#1 3 branches joined: security ended, speed ended, style ended")),
      );
      expect(run.stdout).toMatch(/\n#2 synthesizer done /);
    });

    it("prints a join that fails, in text, and shows the failed branch", async () => {
      const agent = scenario("one-fails", [
        "{ role: planner, output: { $status: ready, plan: add a cache }, body: Cache it. }",
        "{ role: synthesizer, output: { $status: done, decision: go }, body: Go. }",
        "{ role: reviewer, branch: security, output: { verdict: approve, notes: fine }, body: Fine. }",
        "{ role: reviewer, branch: speed, output: { verdict: maybe, notes: unsure }, body: Unsure. }",
        "{ role: reviewer, branch: style, output: { verdict: approve, notes: fine }, body: Fine. }",
      ]);
      const run = await temp.uwf(["run", REVIEW, "-p", "Cache the user service", "--agent", agent]);
      const lines = run.stdout.split("\n");
      // The fan-out's line right after the line of the step that fanned out.
      expect(lines[0]).toMatch(/^#1 planner ready /);
      expect(lines[1]).toBe("#1 fanned out into 3 branches: security, speed, style (join synthesizer, all)");
      expect(run.stdout).toContain("#1 3 branches joined: security ended, speed failed, style ended");
      expect(run.stdout).toContain("failed: branch-failed: ");

      const listed = await json(["list"], listResultSchema);
      const parent = listed.threads.find((thread) => thread.branchOf === undefined);
      expect(parent?.status).toBe("failed");
      expect(parent?.failure?.code).toBe("branch-failed");
      const [group] = (await json(["show", parent?.thread as string], shownThreadSchema)).branches ?? [];
      expect(group?.joinedAt).toBeNull();
      const speed = group?.branches.find((branch) => branch.key === "speed");
      expect(speed?.status).toBe("failed");
      expect(speed?.error?.code).toBe("agent-failed");
    });

    it("reports a fan-out and its join from `uwf worker`, with the worker, the fan-out after its step", async () => {
      const queued = await temp.uwf(["start", REVIEW, "-p", "Cache the user service", "--queue", "--json"]);
      const parent = (queued.json() as { thread: string }).thread;
      const worker = await temp.uwf(["worker", "--once", "--agent", reviewAgent(), "--jsonl"]);
      expect(worker.exitCode).toBe(0);
      const events = parseEvents(worker.stdout);
      const fanOut = events.findIndex((event) => event.type === "branches-started");
      const started = events[fanOut] as BranchesStartedEvent;
      expect(started).toMatchObject({ thread: parent, step: 1, join: "synthesizer" });
      expect(started.worker).toMatch(/:\d+$/);
      expect(events[fanOut - 1]).toMatchObject({ type: "step-finished", thread: parent, role: "planner" });
      const branchThreads = started.branches.map((branch) => branch.thread);
      const reviewerStarts = events.filter((event) => event.type === "step-started" && event.role === "reviewer");
      expect(reviewerStarts.map((event) => event.thread).sort()).toEqual([...branchThreads].sort());
      const joined = events.find((event) => event.type === "branches-joined") as BranchesJoinedEvent | undefined;
      expect(joined).toMatchObject({ thread: parent, step: 1, cancelled: [] });
      expect(joined?.worker).toBe(started.worker);
      expect(events.at(-1)?.type).toBe("worker-stopped");
    });

    it("shows a foreach fan-out's branches by item index", async () => {
      const run = await temp.uwf(["run", FILES, "-p", "Fix the imports", "--agent", filesAgent(), "--json"]);
      expect(run.stderr).toBe("");
      expect(run.exitCode).toBe(0);
      const parent = stepResultSchema.parse(run.json()).thread;
      const shown = await json(["show", parent], shownThreadSchema);
      expect(shown.branches?.[0]).toMatchObject({ step: 1, kind: "foreach", join: "reducer", policy: "all-settled" });
      expect(shown.branches?.[0]?.branches.map((branch) => [branch.key, branch.status, branch.role])).toEqual([
        ["0", "ended", "fixer"],
        ["1", "ended", "fixer"],
        ["2", "ended", "fixer"],
      ]);
    });
  });
