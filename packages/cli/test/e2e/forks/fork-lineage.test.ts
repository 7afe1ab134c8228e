import { Database } from "bun:sqlite";
import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { REF_SCHEMA_VERSION } from "@uwf/cas";
import {
  errorResultSchema,
  type FamilyTreeNode,
  type ForkOrigin,
  forkResultSchema,
  listResultSchema,
  logResultSchema,
  stepResultSchema,
  treeResultSchema,
} from "@uwf/protocol";
import { LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome();

const start = () => temp.startThread(LINEAR, "The task");

/** A linear thread run to its end (planner, then doer), with its start node and step addresses. */
async function finishedThread() {
  const thread = await start();
  expect((await temp.uwf(["step", thread, "--all", "--agent", SCRIPTED])).exitCode).toBe(0);
  const [planner, doer] = logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json()).steps;
  if (planner === undefined || doer === undefined) throw new Error("expected two steps");
  return { thread, start: (await record(thread)).start, planner: planner.address, doer: doer.address };
}

const record = (thread: string) => temp.showThread(thread);

async function fork(...args: string[]) {
  const forked = await temp.uwf(["fork", ...args, "--json"]);
  expect(forked.stderr).toBe("");
  expect(forked.exitCode).toBe(0);
  return forkResultSchema.parse(forked.json());
}

function origin(thread: string | null, step: number, address: string, replaced = false): ForkOrigin {
  return { thread, step, address, replaced };
}

async function listIds(...args: string[]): Promise<string[]> {
  const listed = await temp.uwf(["list", ...args, "--json"]);
  expect(listed.exitCode).toBe(0);
  return listResultSchema.parse(listed.json()).threads.map((thread) => thread.id);
}

async function tree(thread: string) {
  const shown = await temp.uwf(["tree", thread, "--json"]);
  expect(shown.stderr).toBe("");
  expect(shown.exitCode).toBe(0);
  return treeResultSchema.parse(shown.json());
}

/** The tree as `thread@branchedAt(placement)` lines, indented by depth, for comparing shapes. */
function shape(nodes: readonly FamilyTreeNode[], depth = 0): string[] {
  return nodes.flatMap((node) => [
    `${"  ".repeat(depth)}${node.thread}@${node.branchedAt ?? "-"}(${node.placement})`,
    ...shape(node.children, depth + 1),
  ]);
}

describe("fork lineage", () => {
  it("names the parent and step 0 for a fork of a start node other threads share", async () => {
    const first = await finishedThread();
    // Same workflow, prompt and cwd: one start node, two originals; the second has not stepped.
    const second = await start();
    expect((await record(second)).start).toBe(first.start);

    // The start node was first recorded by the older original.
    const byAddress = await fork(first.start);
    expect(byAddress.forkedFrom).toEqual(origin(first.thread, 0, first.start));
    const fromFirst = await fork(first.start, "--from", first.thread.slice(0, 12));
    expect(fromFirst.forkedFrom).toEqual(origin(first.thread, 0, first.start));
    expect((await record(fromFirst.thread)).forkedFrom).toEqual(origin(first.thread, 0, first.start));

    const shown = await temp.uwf(["show", fromFirst.thread]);
    expect(shown.stdout).toContain(`forked from ${first.thread} at step 0 (${first.start})`);
  });

  it("names the parent and step of a fork of a middle step, of a thread id and of a fork", async () => {
    const original = await finishedThread();
    const middle = await fork(original.planner);
    expect(middle.forkedFrom).toEqual(origin(original.thread, 1, original.planner));

    const atHead = await fork(original.thread.slice(0, 10).toLowerCase());
    expect(atHead.forkedFrom).toEqual(origin(original.thread, 2, original.doer));
    expect(atHead.head).toBe(original.doer);

    // The middle fork takes a step of its own; its forks name it, by id or by its step's address.
    const stepped = stepResultSchema.parse(
      (await temp.uwf(["step", middle.thread, "--agent", SCRIPTED, "--json"])).json(),
    );
    const grandchild = await fork(middle.thread);
    expect(grandchild.forkedFrom).toEqual(origin(middle.thread, 2, stepped.head));
    const byAddress = await fork(stepped.head);
    expect(byAddress.forkedFrom).toEqual(origin(middle.thread, 2, stepped.head));
    // The grandchild only holds that step as its head: the middle fork recorded it.
    const ofGrandchild = await fork(grandchild.thread);
    expect(ofGrandchild.forkedFrom).toEqual(origin(middle.thread, 2, stepped.head));

    const listed = await temp.uwf(["list"]);
    expect(listed.stdout).toContain("FORKED FROM");
    expect(listed.stdout).toContain(`${middle.thread.slice(0, 10)}… at step 2`);
  });

  it("refuses --from a thread whose chain does not hold the node, and --from with a thread", async () => {
    const original = await finishedThread();
    const other = await start();
    const refused = await temp.uwf(["fork", original.planner, "--from", other, "--json"]);
    expect(refused.exitCode).toBe(1);
    expect(errorResultSchema.parse(JSON.parse(refused.stderr)).error.code).toBe("node-not-on-thread");
    const both = await temp.uwf(["fork", original.thread, "--from", other]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain("--from");
    expect(await listIds()).toEqual([other, original.thread]);
  });

  it("marks a counterfactual fork with the step whose reply it replaced", async () => {
    const original = await finishedThread();
    const reply = join(temp.work, "reply.md");
    await Bun.write(reply, "---\ndone: false\n---\nWhat if it had failed?\n");
    const counterfactual = await fork(original.thread, "--output", reply);
    expect(counterfactual.forkedFrom).toEqual(origin(original.thread, 2, original.doer, true));
    expect(counterfactual.head).not.toBe(original.doer);

    const shown = await temp.uwf(["show", counterfactual.thread]);
    expect(shown.stdout).toContain(`forked from ${original.thread} at step 2, its reply replaced (${original.doer})`);
    const drawn = await temp.uwf(["tree", original.thread]);
    expect(drawn.stdout).toContain(`└─ step 2, reply replaced: ${counterfactual.thread}  ended  2 steps`);
  });

  it("lists the forks of a thread, and with --recursive their forks too", async () => {
    const original = await finishedThread();
    const child = (await fork(original.planner)).thread;
    const sibling = (await fork(original.start)).thread;
    // Each generation records a step of its own (a replaced reply), so the next fork is its child.
    expect((await temp.uwf(["step", child, "--agent", SCRIPTED])).exitCode).toBe(0);
    const reply = join(temp.work, "reply.md");
    await Bun.write(reply, "---\ndone: false\n---\nWhat if it had failed?\n");
    const grandchild = (await fork(child, "--output", reply)).thread;
    const greatGrandchild = (await fork(grandchild)).thread;

    expect(await listIds("--forks-of", original.thread)).toEqual([sibling, child]);
    expect(await listIds("--forks-of", original.thread.slice(0, 12), "--recursive")).toEqual([
      greatGrandchild,
      grandchild,
      sibling,
      child,
    ]);
    expect(await listIds("--forks-of", child)).toEqual([grandchild]);
    expect(await listIds("--forks-of", greatGrandchild, "--recursive")).toEqual([]);
    const limited = listResultSchema.parse(
      (await temp.uwf(["list", "--forks-of", original.thread, "--recursive", "--limit", "1", "--json"])).json(),
    );
    expect(limited.total).toBe(4);

    const alone = await temp.uwf(["list", "--recursive"]);
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain("--forks-of");
    const unknown = await temp.uwf(["list", "--forks-of", "01ZZZZ"]);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('no thread "01ZZZZ"');
  });

  it("places repeated forks of one address as siblings under the thread that recorded it, however each is named", async () => {
    const original = await finishedThread();
    const first = await fork(original.planner);
    // Forked by the first fork's id (its head is that address) and --from it: still the original's.
    const second = await fork(first.thread);
    const third = await fork(original.planner, "--from", first.thread);
    for (const made of [first, second, third]) {
      expect(made.forkedFrom).toEqual(origin(original.thread, 1, original.planner));
    }
    const result = await tree(third.thread);
    expect(shape(result.roots)).toEqual([
      `${original.thread}@-(original)`,
      `  ${first.thread}@1(lineage)`,
      `  ${second.thread}@1(lineage)`,
      `  ${third.thread}@1(lineage)`,
    ]);
    expect(await listIds("--forks-of", original.thread)).toEqual([third.thread, second.thread, first.thread]);
    expect(await listIds("--forks-of", first.thread)).toEqual([]);
  });

  it("draws the family tree from the root original, as text, JSON and Mermaid", async () => {
    const original = await finishedThread();
    const child = (await fork(original.planner)).thread;
    expect((await temp.uwf(["step", child, "--agent", SCRIPTED])).exitCode).toBe(0);
    const grandchild = (await fork(child)).thread;
    const ofStart = (await fork(original.start)).thread;
    // Another original of the same start node is not of this family.
    const stranger = await start();

    const result = await tree(grandchild);
    expect(result.thread).toBe(grandchild);
    expect(result.workflow).toBe("linear");
    expect(shape(result.roots)).toEqual([
      `${original.thread}@-(original)`,
      `  ${ofStart}@0(lineage)`,
      `  ${child}@1(lineage)`,
      `    ${grandchild}@2(lineage)`,
    ]);
    expect(result.roots[0]).toMatchObject({ status: "ended", stepCount: 2, forkedFrom: null });
    expect(JSON.stringify(result)).not.toContain(stranger);

    const text = await temp.uwf(["tree", grandchild]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout.split("\n")).toEqual([
      `${original.thread}  ended  2 steps  $0.0000  outcome doer  budget 2/100 steps`,
      `├─ step 0: ${ofStart}  active  0 steps  $0.0000  budget 0/100 steps`,
      `└─ step 1: ${child}  ended  2 steps  $0.0000  outcome doer  budget 1/100 steps`,
      `   └─ step 2: ${grandchild}  ended  2 steps  $0.0000  outcome doer  budget 0/100 steps *`,
      "",
    ]);

    const mermaid = await temp.uwf(["tree", original.thread, "--mermaid"]);
    expect(mermaid.exitCode).toBe(0);
    expect(mermaid.stdout).toStartWith("flowchart TD\n");
    expect(mermaid.stdout).toContain(`  T_${original.thread} -->|"step 1"| T_${child}\n`);
    expect(mermaid.stdout).toContain(`  T_${child} -->|"step 2"| T_${grandchild}\n`);
    expect(mermaid.stdout).toContain(`  class T_${original.thread} asked\n`);
    const mermaidJson = treeResultSchema.parse(
      (await temp.uwf(["tree", original.thread, "--mermaid", "--json"])).json(),
    );
    expect(mermaidJson.mermaid).toBe(mermaid.stdout);
  });

  it("draws a family of five the same from each of its members, marking the one asked about", async () => {
    const original = await finishedThread();
    const child = (await fork(original.planner)).thread;
    expect((await temp.uwf(["step", child, "--agent", SCRIPTED])).exitCode).toBe(0);
    const grandchild = (await fork(child)).thread;
    const ofStart = (await fork(original.start, "--from", original.thread)).thread;
    const reply = join(temp.work, "reply.md");
    await Bun.write(reply, "---\ndone: false\n---\nWhat if it had failed?\n");
    const counterfactual = (await fork(original.doer, "--output", reply)).thread;

    const family = [original.thread, child, grandchild, ofStart, counterfactual];
    const expected = [
      `${original.thread}@-(original)`,
      `  ${ofStart}@0(lineage)`,
      `  ${child}@1(lineage)`,
      `    ${grandchild}@2(lineage)`,
      `  ${counterfactual}@2(lineage)`,
    ];
    for (const member of family) {
      const result = await tree(member);
      expect({ member, thread: result.thread, shape: shape(result.roots) }).toEqual({
        member,
        thread: member,
        shape: expected,
      });
      const lines = (await temp.uwf(["tree", member])).stdout.trimEnd().split("\n");
      expect(lines).toHaveLength(5);
      expect(lines.filter((line) => line.endsWith(" *"))).toEqual([expect.stringContaining(member)]);
    }
    const drawn = (await temp.uwf(["tree", grandchild])).stdout;
    expect(drawn).toContain(`└─ step 2, reply replaced: ${counterfactual}  ended  2 steps`);
  });
});

describe("forks recorded by an older uwf", () => {
  /** Turns refs.db back into ref schema 6, which kept only a fork's address, keeping its rows. */
  function rollBackToSchema6(): void {
    const database = new Database(join(temp.home, "refs.db"));
    database.run("DROP INDEX threads_not_explored");
    // What versions 20 and 21 added (the search index, step output, the deadline), newest first.
    database.run("DROP INDEX threads_by_deadline");
    database.run("ALTER TABLE threads DROP COLUMN deadline");
    for (const trigger of ["threads_indexed", "threads_unindexed"]) database.run(`DROP TRIGGER ${trigger}`);
    for (const table of ["thread_words_index", "thread_words", "step_output"]) database.run(`DROP TABLE ${table}`);
    database.run("ALTER TABLE threads DROP COLUMN explored_by");
    database.run("ALTER TABLE leases DROP COLUMN intended_head");
    database.run("ALTER TABLE threads DROP COLUMN forked_from_workflow");
    database.run("DROP TABLE schedules");
    database.run("DROP INDEX threads_by_schedule");
    database.run("ALTER TABLE threads DROP COLUMN scheduled_by");
    database.run("DROP TABLE branch_links");
    database.run("DROP INDEX threads_by_branch_parent");
    database.run("ALTER TABLE threads DROP COLUMN branch_of_thread");
    database.run("ALTER TABLE threads DROP COLUMN branch_of");
    database.run("DROP INDEX threads_by_update");
    database.run("DROP TABLE eval_reports");
    database.run("ALTER TABLE threads DROP COLUMN outcome");
    database.run("ALTER TABLE leases DROP COLUMN cancel_requested_at");
    database.run("DROP TABLE deleted_threads");
    database.run("DROP INDEX threads_runnable");
    database.run("ALTER TABLE threads DROP COLUMN queued");
    database.run("ALTER TABLE threads DROP COLUMN failure");
    database.run("ALTER TABLE threads DROP COLUMN budget");
    database.run("DROP INDEX threads_by_parent");
    database.run("DROP INDEX threads_by_start");
    for (const column of ["forked_from_thread", "forked_from_step", "forked_from_replaced"]) {
      database.run(`ALTER TABLE threads DROP COLUMN ${column}`);
    }
    database.run("PRAGMA user_version = 6");
    database.close();
  }

  it("are migrated on open, still list and show, and are placed in the tree by their address", async () => {
    const original = await finishedThread();
    const child = (await fork(original.planner)).thread;
    const reply = join(temp.work, "reply.md");
    await Bun.write(reply, "---\ndone: false\n---\nWhat if it had failed?\n");
    const counterfactual = (await fork(original.doer, "--output", reply)).thread;
    rollBackToSchema6();

    expect(await listIds()).toEqual([counterfactual, child, original.thread]);
    expect((await record(child)).forkedFrom).toEqual({
      thread: null,
      step: null,
      address: original.planner,
      replaced: null,
    });
    const version = new Database(join(temp.home, "refs.db"), { readonly: true });
    expect(version.query("PRAGMA user_version").get()).toEqual({ user_version: REF_SCHEMA_VERSION });
    version.close();
    expect((await temp.uwf(["show", child])).stdout).toContain(`forked from node ${original.planner}`);
    expect((await temp.uwf(["list"])).stdout).toContain(`node ${original.planner}`);
    // Only recorded lineage is listed by parent; the tree reads the chains to place them.
    expect(await listIds("--forks-of", original.thread)).toEqual([]);
    expect(shape((await tree(child)).roots)).toEqual([
      `${original.thread}@-(original)`,
      `  ${child}@1(address)`,
      `  ${counterfactual}@2(address)`,
    ]);
    const drawn = (await temp.uwf(["tree", original.thread])).stdout;
    expect(drawn).toContain(`├─ step 1: ${child}  active  1 step  $0.0000  (forked by address before uwf`);
    expect(drawn).toContain(`└─ step 2, reply replaced: ${counterfactual}  ended  2 steps`);

    // A new fork of an old one names it.
    const newer = await fork(child);
    expect(newer.forkedFrom).toEqual(origin(child, 1, original.planner));
    expect(await listIds("--forks-of", child)).toEqual([newer.thread]);
  });

  it("are listed as roots with a note when no thread's chain holds their address", async () => {
    const original = await finishedThread();
    const child = (await fork(original.planner)).thread;
    rollBackToSchema6();
    // The original's record is lost (a damaged refs.db, say), so nothing recorded holds the fork point.
    const database = new Database(join(temp.home, "refs.db"));
    database.run("DELETE FROM threads WHERE id = ?", [original.thread]);
    database.close();

    const result = await tree(child);
    expect(shape(result.roots)).toEqual([`${child}@-(unplaced)`]);
    expect(result.roots[0]?.note).toBe(`forked from ${original.planner}, which no older thread's chain holds`);
    expect((await temp.uwf(["tree", child])).stdout).toContain("which no older thread's chain holds");
  });
});
