import { Database } from "bun:sqlite";
import { afterEach, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rollBackRefDatabase, startTestPostgres, type TestPostgres } from "@uwf/cas/test";
import {
  diffResultSchema,
  errorResultSchema,
  forkResultSchema,
  logResultSchema,
  treeResultSchema,
} from "@uwf/protocol";
import { createTempHome, type TempHome } from "../../helpers/temp-home.ts";

// `uwf fork NODE --workflow FILE|NAME`: a thread continued on another workflow version.

const WRITER = `  writer:
    goal: Write the change.
    frontmatter: { type: object, properties: { summary: { type: string } }, required: [summary] }`;
const REVIEWER = `  reviewer:
    goal: Review the change.
    frontmatter: { type: object, properties: { approved: { type: boolean } }, required: [approved] }`;
const TESTER = `  tester:
    goal: Test the change.
    frontmatter: { type: object, properties: { passed: { type: boolean } }, required: [passed] }`;

/** Both review-list versions: a rejecting reviewer sends the change back to the writer. */
const REJECTED = `  rejected: { description: The reviewer wants changes, expression: "steps[-1].output.approved = false" }`;
const WRITE_FIRST = `  $START: [{ role: writer, prompt: "Write it." }]`;
const REVIEWER_EDGES = `  reviewer:
    - { role: writer, condition: rejected, prompt: "Fix it." }
    - { role: $END, prompt: "Approved." }`;

/** Ordered lists with JSONata conditions: version 1 writes, then reviews. */
const LIST_V1 = `name: review-list
roles:
${WRITER}
${REVIEWER}
conditions:
${REJECTED}
graph:
${WRITE_FIRST}
  writer: [{ role: reviewer, prompt: "Review: {{ summary }}" }]
${REVIEWER_EDGES}
`;

/** Version 2: a written change with a summary is tested before the review. */
const LIST_V2 = `name: review-list
roles:
${WRITER}
${TESTER}
${REVIEWER}
conditions:
${REJECTED}
  summarised: { description: The writer said what changed, expression: "$length(steps[-1].output.summary) > 0" }
graph:
${WRITE_FIRST}
  writer:
    - { role: tester, condition: summarised, prompt: "Test: {{ summary }}" }
    - { role: reviewer, prompt: "Review: {{ summary }}" }
  tester: [{ role: reviewer, prompt: "Review the tested change." }]
${REVIEWER_EDGES}
`;

/** A version without the writer. */
const LIST_V3 = `name: review-list
roles:
${REVIEWER}
graph:
  $START: [{ role: reviewer, prompt: "Review." }]
  reviewer: [{ role: $END, prompt: "Done." }]
`;

/** Both draft-map versions: the drafter starts, the checker ends or sends the draft back. */
const DRAFTER = `  drafter:
    goal: Draft the text.
    frontmatter: { type: object, properties: { title: { type: string } }, required: [title] }`;
const CHECKER = `  checker:
    goal: Check the draft.`;
const DRAFT_FIRST = `  $START: { new: { role: drafter, prompt: "Draft it." } }`;
const CHECKER_EDGES = `  checker: { approved: { role: $END, prompt: "Fine." }, rejected: { role: drafter, prompt: "Redo it." } }`;

/** \`$status\`-keyed maps with Liquid prompts: version 1 drafts, then checks. */
const MAP_V1 = `name: draft-map
roles:
${DRAFTER}
${CHECKER}
graph:
${DRAFT_FIRST}
  drafter: { done: { role: checker, prompt: "Check {{ title | upcase }}." } }
${CHECKER_EDGES}
`;

/** Version 2: an editor goes over the draft before the check. */
const MAP_V2 = `name: draft-map
roles:
${DRAFTER}
  editor:
    goal: Edit the draft.
${CHECKER}
graph:
${DRAFT_FIRST}
  drafter: { done: { role: editor, prompt: "Edit {{ title | downcase }}." } }
  editor: { done: { role: checker, prompt: "Check the edited draft." } }
${CHECKER_EDGES}
`;

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});

let temp: TempHome;
afterEach(() => temp.cleanup());

/** Writes a workflow version into its own folder (the file name must be the workflow's name). */
function version(folder: string, name: string, source: string): string {
  mkdirSync(join(temp.work, folder), { recursive: true });
  const file = join(temp.work, folder, `${name}.yaml`);
  writeFileSync(file, source);
  return file;
}

/** A scripted agent's scenario; a thread plays it by step number. */
function scenario(name: string, steps: Array<{ role: string; output: Record<string, unknown> }>): string {
  const file = join(temp.work, `${name}.json`);
  writeFileSync(file, JSON.stringify({ steps: steps.map((step) => ({ ...step, body: `${step.role} spoke.` })) }));
  return `scripted:${file}`;
}

async function ok(args: string[]) {
  const run = await temp.uwf(args);
  if (run.exitCode !== 0) throw new Error(`uwf ${args.join(" ")} exited ${run.exitCode}: ${run.stderr}`);
  return run;
}

async function steps(thread: string) {
  return logResultSchema.parse((await ok(["log", thread, "--json"])).json()).steps;
}

/** review-list version 1 (in v1/) run to its end: the writer's step, then the reviewer's approval. */
async function runListV1(): Promise<{ thread: string; writer: string; roles: string[] }> {
  const v1 = version("v1", "review-list", LIST_V1);
  const agent = scenario("list", [
    { role: "writer", output: { summary: "added a flag" } },
    { role: "reviewer", output: { approved: true } },
  ]);
  const { thread } = JSON.parse((await ok(["run", v1, "-p", "Add a flag", "--agent", agent, "--json"])).stdout);
  const ran = await steps(thread);
  return { thread, writer: ran[0]?.address as string, roles: ran.map((step) => step.role) };
}

describe.each(["SQLite", "PostgreSQL"] as const)("fork --workflow (%s store)", (backend) => {
  const setUp = () => {
    temp = createTempHome({ env: backend === "PostgreSQL" ? { UWF_STORE: server.newStoreUrl() } : {} });
  };

  it("continues an ordered-list thread from a middle step on a version whose graph routes elsewhere", async () => {
    setUp();
    const original = await runListV1();
    expect(original.roles).toEqual(["writer", "reviewer"]);
    const { writer } = original;
    const oldAddress = (await temp.showThread(original.thread)).workflowAddress;

    const v2 = version("v2", "review-list", LIST_V2);
    const forked = await temp.uwf(["fork", writer, "--workflow", v2, "--json"]);
    expect(forked.stderr).toBe("");
    expect(forked.exitCode).toBe(0);
    const fork = forkResultSchema.parse(forked.json());
    expect(fork.forkedFrom).toEqual({
      thread: original.thread,
      step: 1,
      address: writer,
      replaced: false,
      workflow: oldAddress,
    });
    const newAddress = fork.workflow as string;
    expect(newAddress).not.toBe(oldAddress);

    // The record names both versions: its own, and the one it left in its lineage.
    const shown = await temp.showThread(fork.thread);
    expect(shown).toMatchObject({ workflow: "review-list", workflowAddress: newAddress, next: "tester", stepCount: 1 });
    expect(shown.forkedFrom?.workflow).toBe(oldAddress);
    const human = (await ok(["show", fork.thread])).stdout;
    expect(human).toContain(`review-list (${newAddress})`);
    expect(human).toContain(`forked onto review-list@${newAddress} from workflow ${oldAddress}`);
    // The file's name now points at the new version, as `start FILE` would leave it.
    expect((await ok(["workflow", "list"])).stdout).toContain(newAddress);
    if (backend === "SQLite") {
      const database = new Database(join(temp.home, "refs.db"), { readonly: true });
      expect(
        database.query("SELECT workflow_address, forked_from_workflow FROM threads WHERE id = ?").get(fork.thread),
      ).toEqual({ workflow_address: newAddress, forked_from_workflow: oldAddress });
      database.close();
    }

    // The step after the fork point goes where the new graph says.
    const moved = scenario("list-v2", [
      { role: "writer", output: { summary: "unused" } },
      { role: "tester", output: { passed: true } },
      { role: "reviewer", output: { approved: true } },
    ]);
    await ok(["step", fork.thread, "--all", "--agent", moved]);
    expect((await steps(fork.thread)).map((step) => step.role)).toEqual(["writer", "tester", "reviewer"]);
    expect(await temp.showThread(fork.thread)).toMatchObject({ status: "ended", workflowAddress: newAddress });

    const diff = diffResultSchema.parse((await ok(["diff", original.thread, fork.thread, "--json"])).json());
    expect(diff.commonSteps).toBe(1);
    expect(diff.workflowChange).toEqual({
      left: { name: "review-list", address: oldAddress },
      right: { name: "review-list", address: newAddress },
      switches: {
        left: [],
        right: [{ thread: fork.thread, step: 1, from: oldAddress, to: { name: "review-list", address: newAddress } }],
      },
    });
    const diffText = (await ok(["diff", original.thread, fork.thread])).stdout;
    expect(diffText).toContain(
      `workflow: different versions, left review-list@${oldAddress}, right review-list@${newAddress}`,
    );
    expect(diffText).toContain(
      `right: ${fork.thread} forked onto review-list@${newAddress} from ${oldAddress} after step 1`,
    );

    const tree = treeResultSchema.parse((await ok(["tree", original.thread, "--json"])).json());
    expect(tree.roots[0]?.forkedOnto).toBeUndefined();
    expect(tree.roots[0]?.children[0]).toMatchObject({
      thread: fork.thread,
      forkedOnto: { name: "review-list", address: newAddress },
    });
    expect((await ok(["tree", original.thread])).stdout).toContain(`step 1: ${fork.thread}`);
    expect((await ok(["tree", original.thread])).stdout).toContain(`forked onto workflow review-list@${newAddress}`);
    expect((await ok(["tree", original.thread, "--mermaid"])).stdout).toContain(`onto review-list@${newAddress}`);
    // Listing forks is as before.
    expect((await ok(["list", "--forks-of", original.thread])).stdout).toContain(fork.thread);
  });

  it("continues a $status-map thread with Liquid prompts on a registered version, by name", async () => {
    setUp();
    const v1 = version("v1", "draft-map", MAP_V1);
    const agent = scenario("map", [
      { role: "drafter", output: { $status: "done", title: "Spring" } },
      { role: "checker", output: { $status: "approved" } },
    ]);
    const original = JSON.parse((await ok(["run", v1, "-p", "A poem", "--agent", agent, "--json"])).stdout);
    const drafter = (await steps(original.thread))[0]?.address as string;
    await ok(["workflow", "add", version("v2", "draft-map", MAP_V2)]);

    const fork = forkResultSchema.parse((await ok(["fork", drafter, "--workflow", "draft-map", "--json"])).json());
    expect(await temp.showThread(fork.thread)).toMatchObject({ next: "editor", workflowAddress: fork.workflow });
    const moved = scenario("map-v2", [
      { role: "drafter", output: { $status: "done", title: "unused" } },
      { role: "editor", output: { $status: "done" } },
      { role: "checker", output: { $status: "approved" } },
    ]);
    await ok(["step", fork.thread, "--all", "--agent", moved]);
    const after = await steps(fork.thread);
    expect(after.map((step) => step.role)).toEqual(["drafter", "editor", "checker"]);
    const shownStep = (await ok(["show", after[1]?.address as string, "--prompt"])).stdout;
    expect(shownStep).toContain("Edit spring.");
  });

  it("refuses a version without the node's role in one line, exit 1, making no thread", async () => {
    setUp();
    const original = await runListV1();
    const { writer } = original;
    const v3 = version("v3", "review-list", LIST_V3);

    const refused = await temp.uwf(["fork", writer, "--workflow", v3]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain("the node's role writer is not one of its roles");
    const asJson = await temp.uwf(["fork", writer, "--workflow", v3, "--json"]);
    expect(asJson.exitCode).toBe(1);
    expect(errorResultSchema.parse(JSON.parse(asJson.stderr)).error).toMatchObject({
      code: "workflow-mismatch",
      data: { role: "writer", step: 1, node: writer, workflow: "review-list" },
    });
    // Nothing was made, and the name still points at the version the thread ran.
    expect(JSON.parse((await ok(["list", "--json"])).stdout).total).toBe(1);
    expect((await ok(["workflow", "show", "review-list", "--json"])).stdout).toContain("writer");

    const broken = version("bad", "review-list", `${LIST_V2}  nowhere: [{ role: $END }]\n`);
    const invalid = await temp.uwf(["fork", writer, "--workflow", broken]);
    expect(invalid.exitCode).toBe(1);
    expect(invalid.stderr).toContain(`${broken}:`);
    expect(JSON.parse((await ok(["list", "--json"])).stdout).total).toBe(1);
  });
});

describe("a home from before fork --workflow (refs.db 16)", () => {
  it("opens, keeps its forks with no workflow in their lineage, and forks onto a version after", async () => {
    temp = createTempHome();
    const original = await runListV1();
    const { writer } = original;
    const plain = forkResultSchema.parse((await ok(["fork", writer, "--json"])).json());
    rollBackRefDatabase(join(temp.home, "refs.db"), 16);

    const kept = await temp.showThread(plain.thread);
    expect(kept.forkedFrom).toEqual({ thread: original.thread, step: 1, address: writer, replaced: false });
    expect((await ok(["list", "--forks-of", original.thread])).stdout).toContain(plain.thread);
    const onto = forkResultSchema.parse(
      (await ok(["fork", writer, "--workflow", version("v2", "review-list", LIST_V2), "--json"])).json(),
    );
    expect((await temp.showThread(onto.thread)).forkedFrom?.workflow).toBe(kept.workflowAddress);
  });
});
