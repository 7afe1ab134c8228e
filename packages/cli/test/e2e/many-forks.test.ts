import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  forksResultSchema,
  listResultSchema,
  logResultSchema,
  shownThreadSchema,
  startResultSchema,
} from "@uwf/protocol";
import { createTempHome, LINEAR, SCRIPTED, type TempHome } from "../helpers/temp-home.ts";

let temp: TempHome;
beforeEach(() => {
  temp = createTempHome();
});
afterEach(() => temp.cleanup());

async function start(workflow = LINEAR): Promise<string> {
  const started = await temp.uwf(["start", workflow, "-p", "The task", "--json"]);
  expect(started.exitCode).toBe(0);
  return startResultSchema.parse(started.json()).thread;
}

async function record(thread: string) {
  return shownThreadSchema.parse((await temp.uwf(["show", thread, "--json"])).json());
}

async function threadCount(): Promise<number> {
  return listResultSchema.parse((await temp.uwf(["list", "--limit", "0", "--json"])).json()).total;
}

describe("uwf fork --count N", () => {
  it("makes N forks at the node in one command, each with its lineage, listed in one --json document", async () => {
    const thread = await start();
    expect((await temp.uwf(["step", thread, "--agent", SCRIPTED])).exitCode).toBe(0);
    const head = (await record(thread)).head;

    const forked = await temp.uwf(["fork", thread, "--count", "3", "--json"]);
    expect(forked.stderr).toBe("");
    expect(forked.exitCode).toBe(0);
    const { forks } = forksResultSchema.parse(forked.json());
    expect(forks).toHaveLength(3);
    expect(new Set(forks.map((fork) => fork.thread)).size).toBe(3);
    for (const fork of forks) {
      expect(fork).toMatchObject({ head, forkedFrom: { thread, step: 1, address: head, replaced: false } });
      expect(await record(fork.thread)).toMatchObject({ status: "active", next: "doer", stepCount: 1 });
    }
    const listed = listResultSchema.parse((await temp.uwf(["list", "--forks-of", thread, "--json"])).json());
    expect(listed.threads.map((listedThread) => listedThread.id).sort()).toEqual(forks.map((f) => f.thread).sort());

    // In text, the ids one per line: what `uwf step -` reads.
    const text = await temp.uwf(["fork", thread, "--count", "2"]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^\w{26}\n\w{26}\n$/);
  });

  it("refuses --count with --output (exit 2) and makes nothing", async () => {
    const thread = await start();
    const before = await threadCount();
    writeFileSync(join(temp.work, "reply.md"), "---\nplan: p\n---\n");
    const refused = await temp.uwf(["fork", thread, "--count", "2", "--output", "reply.md"]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("--count");
    expect((await temp.uwf(["fork", thread, "--count", "0"])).exitCode).toBe(2);
    expect(await threadCount()).toBe(before);
  });
});

describe("uwf fork --output DIR", () => {
  async function plannedThread() {
    const thread = await start();
    expect((await temp.uwf(["step", thread, "--agent", SCRIPTED])).exitCode).toBe(0);
    return { thread, planner: (await record(thread)).head };
  }

  function replyFolder(files: Record<string, string>): string {
    const folder = join(temp.work, "replies");
    mkdirSync(folder, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
    return folder;
  }

  it("makes one counterfactual fork per file, in name order, skipping dotfiles and folders", async () => {
    const { thread, planner } = await plannedThread();
    const folder = replyFolder({
      "b.md": "---\nplan: plan B\n---\nThe second plan.\n",
      "a.md": "---\nplan: plan A\n---\nThe first plan.\n",
      ".notes.md": "not a reply",
    });
    mkdirSync(join(folder, "drafts"));

    const forked = await temp.uwf(["fork", planner, "--output", "replies", "--json"]);
    expect(forked.stderr).toBe("");
    expect(forked.exitCode).toBe(0);
    const { forks } = forksResultSchema.parse(forked.json());
    expect(forks.map((fork) => fork.forkedFrom)).toEqual([
      { thread, step: 1, address: planner, replaced: true },
      { thread, step: 1, address: planner, replaced: true },
    ]);
    const plans = [];
    for (const fork of forks) {
      expect(fork.head).not.toBe(planner);
      const log = logResultSchema.parse((await temp.uwf(["log", fork.thread, "--json"])).json());
      expect(log.steps.map((step) => [step.number, step.role, step.agent])).toEqual([[1, "planner", "manual"]]);
      plans.push(log.steps[0]?.output.plan);
    }
    expect(plans).toEqual(["plan A", "plan B"]);
  });

  it("checks every file first: one invalid reply makes no fork at all, and the error names its file", async () => {
    const { planner } = await plannedThread();
    replyFolder({
      "a.md": "---\nplan: plan A\n---\n",
      "b.md": "---\nnot_a_plan: 1\n---\n",
      "c.md": "---\nplan: plan C\n---\n",
    });
    const before = await threadCount();
    const refused = await temp.uwf(["fork", planner, "--output", "replies"]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(join("replies", "b.md"));
    expect(await threadCount()).toBe(before);
  });
});
