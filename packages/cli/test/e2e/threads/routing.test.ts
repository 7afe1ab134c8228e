import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { openFileStore } from "@uwf/cas";
import { scriptedAgentRun } from "@uwf/cas/test";
import {
  type Address,
  agentRunNodeSchema,
  forkResultSchema,
  listResultSchema,
  type OutputNode,
  stepResultSchema,
  type TextNode,
  type ThreadStepNode,
} from "@uwf/protocol";
import { runOfStep, textOfNode } from "../../helpers/cas-nodes.ts";
import { errorOf } from "../../helpers/error-of.ts";
import { FIXTURES, useTempHome } from "../../helpers/temp-home.ts";

const WORKFLOW = join(FIXTURES, "workflows/routing.yaml");
const scripted = (name: string) =>
  `scripted:${join(FIXTURES, "workflows", name === "" ? "routing.scenario.yaml" : `routing.${name}.scenario.yaml`)}`;
const NO_EDGE = `$status "nowhere" has no edge from role worker, and no edge without a status holds (condition gave_up → $END); the edges answer: approved, rejected`;

const temp = useTempHome();

const start = () => temp.startThread(WORKFLOW);

const record = (thread: string) => temp.showThread(thread);

async function step(thread: string, scenario: string, ...more: string[]) {
  return temp.uwf(["step", thread, "--agent", scripted(scenario), ...more]);
}

describe("routing a reply before its step is committed", () => {
  it("asks again when the $status has no edge, naming the statuses that do, then fails with the head unchanged", async () => {
    const thread = await start();
    const before = await record(thread);
    const result = await step(thread, "nowhere", "--json");
    expect(result.exitCode).toBe(1);
    const error = errorOf(result.stderr);
    expect(error.code).toBe("agent-failed");
    expect(error.message).toContain(NO_EDGE);
    expect(error.message).toContain("no step was recorded");

    const run = agentRunNodeSchema.parse((await temp.uwf(["cas", "get", String(error.data.run)])).json());
    expect(run.outcome).toBe("invalid");
    expect(run.attempts.map((attempt) => attempt.error)).toEqual([NO_EDGE, NO_EDGE, NO_EDGE]);
    const retry = await textOfNode(temp, run.attempts[1]?.request ?? "");
    expect(retry).toContain(`Problem: ${NO_EDGE}`);
    const reply = await temp.uwf(["show", String(error.data.run), "--reply"]);
    expect(reply.stdout).toContain("raw reply that leads nowhere");

    // The head and next role stand; the thread is failed, naming the run, until a step tries again.
    const { failure, status, updatedAt: _updated, ...after } = await record(thread);
    const { updatedAt: _before, status: _active, ...unchanged } = before;
    expect(after).toEqual(unchanged);
    expect(after.next).toBe("worker");
    expect(status).toBe("failed");
    expect(failure).toMatchObject({ code: "agent-failed", run: error.data.run, attempts: 1 });
  });

  it("accepts a reply fixed on retry and records where it leads", async () => {
    const thread = await start();
    const result = await step(thread, "fixed", "--json");
    expect(result.exitCode).toBe(0);
    const stepped = stepResultSchema.parse(result.json());
    expect(stepped.status).toBe("active");
    expect(stepped.next).toBe("reviewer");
    expect(stepped.steps[0]?.status).toBe("approved");
    const run = await runOfStep(temp, stepped.head);
    expect(run.attempts.map((attempt) => attempt.error)).toEqual([NO_EDGE, null]);
    expect(await textOfNode(temp, run.attempts[1]?.reply ?? "")).toContain("Second try.");
  });

  it("asks again when the chosen edge's prompt cannot be rendered from the reply, naming the field", async () => {
    const thread = await start();
    const result = await step(thread, "render", "-n", "2", "--json");
    expect(result.exitCode).toBe(0);
    const stepped = stepResultSchema.parse(result.json());
    expect(stepped.steps.map((summary) => summary.role)).toEqual(["worker", "reviewer"]);
    expect(stepped.steps[1]?.output).toEqual({ $status: "changes", comments: "Add a test." });
    expect(stepped.next).toBe("worker");
    const run = await runOfStep(temp, stepped.head);
    expect(run.attempts).toHaveLength(2);
    expect(run.attempts[0]?.error).toContain("the edge from role reviewer to worker");
    expect(run.attempts[0]?.error).toContain('needs the field "comments", which the reply does not set');
    expect(run.attempts[1]?.error).toBeNull();
  });
});

describe("the step that routes to $END", () => {
  it("ends the thread in the same commit; the next step exits 10 and changes nothing", async () => {
    const thread = await start();
    const first = stepResultSchema.parse((await step(thread, "", "--json")).json());
    expect(first).toMatchObject({ status: "active", next: "reviewer" });

    const ending = await step(thread, "", "--json");
    expect(ending.exitCode).toBe(0);
    const ended = stepResultSchema.parse(ending.json());
    expect(ended).toMatchObject({ status: "ended", next: "$END" });
    expect(ended.steps.map((summary) => summary.role)).toEqual(["reviewer"]);
    const endedRecord = await record(thread);
    expect(endedRecord).toMatchObject({ status: "ended", head: ended.head, stepCount: 2 });

    const listed = listResultSchema.parse((await temp.uwf(["list", "--status", "ended", "--json"])).json());
    expect(listed.threads.map((listedThread) => listedThread.id)).toEqual([thread]);

    const again = await step(thread, "");
    expect(again.exitCode).toBe(10);
    expect(again.stderr).toContain("has ended");
    expect(await record(thread)).toEqual(endedRecord);
  });

  it("says in the human output that the thread ended", async () => {
    const thread = await start();
    const result = await step(thread, "", "--all");
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^#2 reviewer done /);
    expect(lines[2]).toBe(`thread ${thread} ended · it reached $END (reviewer done), nothing is left to step`);
  });

  it("makes `uwf run --max-steps N` on an N-step thread report ended", async () => {
    const result = await temp.uwf([
      "run",
      WORKFLOW,
      "-p",
      "Write hello.txt",
      "--max-steps",
      "2",
      "--agent",
      scripted(""),
      "--json",
    ]);
    expect(result.exitCode).toBe(0);
    const ran = stepResultSchema.parse(result.json());
    expect(ran.status).toBe("ended");
    expect(ran.steps).toHaveLength(2);
    expect((await record(ran.thread)).status).toBe("ended");
  });

  it("still ends an older thread left active with next $END, on its next step", async () => {
    const thread = await start();
    await step(thread, "", "--all");
    const ended = await record(thread);
    const store = await openFileStore(temp.home);
    try {
      // What an older uwf left after the step that routed to $END.
      const update = { status: "active", next: "$END", updatedAt: ended.updatedAt } as const;
      expect(await store.refs.updateThread(thread, ended.head as Address, update)).toBe(true);
    } finally {
      await store.close();
    }
    const result = await step(thread, "", "--json");
    expect(result.exitCode).toBe(0);
    expect(stepResultSchema.parse(result.json())).toMatchObject({ status: "ended", steps: [] });
    expect((await record(thread)).head).toBe(ended.head);
    expect((await step(thread, "")).exitCode).toBe(10);
  });
});

/** Appends a worker step whose reply leads nowhere, as an older uwf committed it, leaving the record at `next: null`. */
async function strand(thread: string): Promise<Address> {
  const shown = await record(thread);
  const store = await openFileStore(temp.home);
  try {
    const time = new Date().toISOString();
    const put = (node: unknown) => store.objects.put(node);
    const text = (value: string) => put({ type: "text/1", text: value } satisfies TextNode);
    const prompt = await text("Do the task.");
    const reply = "---\n$status: nowhere\nsummary: Wrote hello.txt\n---\nOld reply.\n";
    const run = await put(
      scriptedAgentRun({
        agent: "scripted",
        cwd: temp.work,
        prompt,
        reply: await text(reply),
        startedAt: time,
        completedAt: time,
      }),
    );
    const head = await put({
      type: "thread-step/1",
      start: shown.start as Address,
      prev: null,
      role: "worker",
      edgePrompt: "Do the task.",
      output: await put({
        type: "output/1",
        fields: { $status: "nowhere", summary: "Wrote hello.txt" },
      } satisfies OutputNode),
      body: await text("Old reply.\n"),
      run,
      startedAt: time,
      completedAt: time,
    } satisfies ThreadStepNode);
    const update = { head, status: "active", next: null, stepCount: 1, updatedAt: time } as const;
    expect(await store.refs.updateThread(thread, shown.head as Address, update)).toBe(true);
    return head;
  } finally {
    await store.close();
  }
}

describe("a thread stranded by an older uwf", () => {
  it("fails its next step with how to go on, and a fork with a corrected reply goes on", async () => {
    const thread = await start();
    const head = await strand(thread);
    const before = await record(thread);

    const result = await step(thread, "", "--json");
    expect(result.exitCode).toBe(1);
    const error = errorOf(result.stderr);
    expect(error.code).toBe("thread-stranded");
    expect(error.message).toContain(NO_EDGE);
    expect(error.message).toContain(`uwf fork ${head} --output FILE`);
    expect(error.message).toContain(`uwf cancel ${thread}`);
    // Its head stands; it is failed with no run (no agent ran), where `list --status failed` finds it.
    const { failure, status, updatedAt: _updated, ...after } = await record(thread);
    const { updatedAt: _before, status: _active, ...unchanged } = before;
    expect(after).toEqual(unchanged);
    expect(status).toBe("failed");
    expect(failure).toMatchObject({ code: "thread-stranded", run: null });

    const file = join(temp.work, "corrected.md");
    await Bun.write(file, "---\n$status: approved\nsummary: Wrote hello.txt\n---\nCorrected.\n");
    const forked = await temp.uwf(["fork", head, "--output", file, "--json"]);
    expect(forked.exitCode).toBe(0);
    const fork = await record(forkResultSchema.parse(forked.json()).thread);
    expect(fork).toMatchObject({ status: "active", next: "reviewer", stepCount: 1 });
    const onward = stepResultSchema.parse((await step(fork.id, "", "--json")).json());
    expect(onward).toMatchObject({ status: "ended", steps: [{ role: "reviewer" }] });
  });
});

describe("fork --output", () => {
  it("refuses a replacement reply that cannot be routed and writes nothing", async () => {
    const thread = await start();
    const stepped = stepResultSchema.parse((await step(thread, "", "--json")).json());
    const file = join(temp.work, "nowhere.md");
    await Bun.write(file, "---\n$status: nowhere\nsummary: Wrote hello.txt\n---\nWhat if?\n");
    const objectsBefore = temp.objectCount();

    const refused = await temp.uwf(["fork", stepped.head, "--output", file, "--json"]);
    expect(refused.exitCode).toBe(1);
    const error = errorOf(refused.stderr);
    expect(error.code).toBe("unroutable-reply");
    expect(error.message).toContain(`${file}: the reply cannot be routed: ${NO_EDGE}`);
    expect(temp.objectCount()).toBe(objectsBefore);
    const listed = listResultSchema.parse((await temp.uwf(["list", "--json"])).json());
    expect(listed.total).toBe(1);
  });

  it("makes an ended fork when the replacement reply routes to $END", async () => {
    const thread = await start();
    const stepped = stepResultSchema.parse((await step(thread, "", "--json")).json());
    const file = join(temp.work, "gave-up.md");
    await Bun.write(file, "---\n$status: stuck\nsummary: Nothing works\ngaveUp: true\n---\nI give up.\n");
    const forked = await temp.uwf(["fork", stepped.head, "--output", file, "--json"]);
    expect(forked.exitCode).toBe(0);
    const fork = await record(forkResultSchema.parse(forked.json()).thread);
    expect(fork).toMatchObject({ status: "ended", next: "$END", stepCount: 1 });
  });
});
