import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeAnthropicServer, fakeTextReply } from "@uwf/agent-kit/test";
import { waitFor } from "@uwf/cas/test";
import { forksResultSchema, logResultSchema, stepBatchResultSchema, stepResultSchema } from "@uwf/protocol";
import { parseEvents } from "../../helpers/cli-events.ts";
import { FAKE_MODEL_ENV, startFakeModelApi } from "../../helpers/fake-model-api.ts";
import { fixtureAgentsConfig, fixtureWorkflow, LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

const ASK = fixtureWorkflow("ask");
const MODEL_LOOP = fixtureWorkflow("model-loop");

const temp = useTempHome({
  setUp: (home) => home.writeConfig([...fixtureAgentsConfig(["batch-worker", "slow-valid"])].join("\n")),
});

const start = (workflow = LINEAR) => temp.startThread(workflow, "The task");

const record = (thread: string) => temp.showThread(thread);

/** The largest number of agents that had started and not yet ended, read from batch-worker.sh's log in order. */
function mostAtOnce(logLines: readonly string[]): number {
  let running = 0;
  let most = 0;
  for (const line of logLines) {
    running += line.startsWith("start ") ? 1 : -1;
    most = Math.max(most, running);
  }
  return most;
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
    const listed = await temp.listThreads("--forks-of", thread);
    expect(listed.map((listedThread) => listedThread.id).sort()).toEqual(forks.map((f) => f.thread).sort());

    // In text, the ids one per line: what `uwf step -` reads.
    const text = await temp.uwf(["fork", thread, "--count", "2"]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^\w{26}\n\w{26}\n$/);
  });

  it("refuses --count with --output (exit 2) and makes nothing", async () => {
    const thread = await start();
    const before = await temp.threadCount();
    writeFileSync(join(temp.work, "reply.md"), "---\nplan: p\n---\n");
    const refused = await temp.uwf(["fork", thread, "--count", "2", "--output", "reply.md"]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("--count");
    expect((await temp.uwf(["fork", thread, "--count", "0"])).exitCode).toBe(2);
    expect(await temp.threadCount()).toBe(before);
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
    const before = await temp.threadCount();
    const refused = await temp.uwf(["fork", planner, "--output", "replies"]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(join("replies", "b.md"));
    expect(await temp.threadCount()).toBe(before);
  });
});

describe("uwf step T1 T2 … --parallel K", () => {
  it("runs every thread to its end, printing each step as it finishes, then a summary table (exit 0)", async () => {
    const threads = [await start(), await start(), await start()];
    const [first, second, third] = threads as [string, string, string];
    const hold = join(temp.work, "hold");
    mkdirSync(hold);
    const child = temp.spawn(["step", ...threads, "--all", "--parallel", "2", "--agent", "batch-worker"], {
      env: { BATCH_HOLD: hold },
    });
    let stdout = "";
    const reading = (async () => {
      for await (const chunk of child.stdout as ReadableStream<Uint8Array>) stdout += new TextDecoder().decode(chunk);
    })();
    // Only the first thread's agents may answer: its two lines come while the second thread's step still runs.
    writeFileSync(join(hold, `${first}.1`), "");
    writeFileSync(join(hold, `${first}.2`), "");
    await waitFor(() => stdout.includes(`${first} #2 doer`), { what: "the first thread's second step line" });
    expect(stdout).not.toContain(second);
    expect(child.exitCode).toBeNull();
    for (const thread of [second, third]) for (const step of [1, 2]) writeFileSync(join(hold, `${thread}.${step}`), "");
    expect(await child.exited).toBe(0);
    await reading;

    const lines = stdout.trimEnd().split("\n");
    const stepLines = lines.filter((line) => / #\d /.test(line));
    expect(stepLines).toHaveLength(6);
    for (const thread of threads) {
      expect(stepLines.filter((line) => line.startsWith(`${thread} `)).map((line) => line.split(" ")[1])).toEqual([
        "#1",
        "#2",
      ]);
    }
    const table = lines.slice(stepLines.length);
    expect(table[0]).toMatch(/^THREAD +STEPS +STATUS +COST +ERROR$/);
    for (const thread of threads) {
      // How each ended: the doer's edge to $END.
      const row = new RegExp(`^${thread} +2 +ended \\(doer\\) +\\$0\\.0000$`);
      expect({ thread, row: table.some((line) => row.test(line)) }).toEqual({ thread, row: true });
    }
    expect(table.at(-1)).toBe("3 threads: 3 ended (doer) · 6 steps · $0.0000");
    for (const thread of threads) expect(await record(thread)).toMatchObject({ status: "ended", stepCount: 2 });
  });

  it("prints every event as a line of NDJSON under --jsonl, each matching its schema", async () => {
    const threads = [await start(), await start(), await start()];
    const result = await temp.uwf(["step", ...threads, "--all", "--parallel", "2", "--agent", SCRIPTED, "--jsonl"]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("");
    const events = parseEvents(result.stdout);
    for (const thread of threads) {
      expect(events.filter((event) => event.thread === thread).map((event) => event.type)).toEqual([
        "step-started",
        "step-finished",
        "step-started",
        "step-finished",
        "thread-ended",
      ]);
    }
    expect(events).toHaveLength(15);
  });

  it("exits with the most severe thread's code: failed, then busy, suspended, already ended", async () => {
    const ended = await start();
    const failing = await start();
    const alreadyEnded = await start();
    const asking = await start(ASK);
    const busy = await start();
    expect((await temp.uwf(["step", alreadyEnded, "--all", "--agent", SCRIPTED])).exitCode).toBe(0);
    const failList = join(temp.work, "fail");
    writeFileSync(failList, `${failing}\n`);
    const pidFile = join(temp.work, "pid");
    const holder = temp.spawn(["step", busy, "--agent", "slow-valid"], { env: { PID_FILE: pidFile } });
    await waitFor(() => existsSync(pidFile), { what: "the busy thread's stepper" });

    const step = (threads: string[]) =>
      temp.uwf(["step", ...threads, "--all", "--parallel", "3", "--agent", "batch-worker", "--json"], {
        env: { FAIL_THREADS: failList },
      });
    const mixed = await step([ended, failing, alreadyEnded, asking, busy]);
    expect(mixed.exitCode).toBe(1);
    const result = stepBatchResultSchema.parse(mixed.json());
    expect(result.exitCode).toBe(1);
    expect(result.stoppedBy).toBeNull();
    expect(
      result.threads.map((thread) => [thread.thread, thread.outcome, thread.exitCode, thread.steps.length]),
    ).toEqual([
      [ended, "ended", 0, 2],
      [failing, "failed", 1, 0],
      [alreadyEnded, "already-ended", 0, 0],
      [asking, "suspended", 20, 1],
      [busy, "busy", 75, 0],
    ]);
    expect(result.threads[1]?.error?.code).toBe("agent-failed");
    expect(result.threads[4]?.error?.code).toBe("thread-busy");

    expect((await step([alreadyEnded, asking, busy])).exitCode).toBe(75);
    writeFileSync(`${pidFile}.release`, "");
    expect(await holder.exited).toBe(0);
    expect((await step([alreadyEnded, asking])).exitCode).toBe(20);
    // Threads that had ended are done: the batch exits 0, so `&&` goes on.
    expect((await step([alreadyEnded, ended])).exitCode).toBe(0);
  });

  it("ends 50 forks from `fork --count 50 | step - --all --parallel 8 --jsonl`: one line per step, none busy", async () => {
    const original = await start();
    const forked = await temp.uwf(["fork", original, "--count", "50"]);
    expect(forked.exitCode).toBe(0);
    const forks = forked.stdout.trim().split("\n");
    expect(new Set(forks).size).toBe(50);

    const log = join(temp.work, "batch.log");
    const result = await temp.uwf(["step", "-", "--all", "--parallel", "8", "--agent", "batch-worker", "--jsonl"], {
      stdin: forked.stdout,
      env: { BATCH_LOG: log },
    });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const events = parseEvents(result.stdout);
    expect(events.filter((event) => !["step-started", "step-finished", "thread-ended"].includes(event.type))).toEqual(
      [],
    );
    expect(await temp.threadCount("--forks-of", original)).toBe(50);
    for (const fork of await temp.listThreads("--forks-of", original)) {
      const own = events.filter((event) => event.thread === fork.id).map((event) => event.type);
      expect({
        fork: fork.id,
        status: fork.status,
        finished: own.filter((type) => type === "step-finished").length,
      }).toEqual({ fork: fork.id, status: "ended", finished: fork.stepCount });
      expect(own.at(-1)).toBe("thread-ended");
    }
    // Two steps (planner, doer) for each of the 50: a started, a finished and, at the end, an ended line.
    expect(events).toHaveLength(50 * 5);
    expect(mostAtOnce(readFileSync(log, "utf8").trim().split("\n"))).toBeLessThanOrEqual(8);
  }, 120_000);

  it("reads thread ids from stdin with -, one per line, blank lines skipped", async () => {
    const original = await start();
    const forked = await temp.uwf(["fork", original, "--count", "2"]);
    const stdin = `\n${forked.stdout}\n  ${original}  \n\n`;
    const result = await temp.uwf(["step", "-", "--all", "--agent", SCRIPTED, "--json"], { stdin });
    expect(result.exitCode).toBe(0);
    const threads = stepBatchResultSchema.parse(result.json()).threads;
    expect(threads.map((thread) => thread.thread)).toEqual([...forked.stdout.trim().split("\n"), original]);
    expect(threads.every((thread) => thread.outcome === "ended")).toBe(true);

    const empty = await temp.uwf(["step", "-", "--all"], { stdin: "\n\n" });
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain("stdin held no thread id");
  });

  it("refuses the whole batch, stepping nothing, when a thread cannot be found", async () => {
    const thread = await start();
    const result = await temp.uwf(["step", thread, "01ZZZZZZZZ", "--all", "--agent", SCRIPTED]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("01ZZZZZZZZ");
    expect((await record(thread)).stepCount).toBe(0);
  });

  it("runs at most K agents at a time", async () => {
    const threads = [await start(), await start(), await start(), await start()];
    const log = join(temp.work, "batch.log");
    const result = await temp.uwf(["step", ...threads, "--all", "--parallel", "2", "--agent", "batch-worker"], {
      env: { BATCH_LOG: log },
    });
    expect(result.exitCode).toBe(0);
    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(lines).toHaveLength(16);
    // Never more than two, and two at once at some point: the pool ran them side by side.
    expect(mostAtOnce(lines)).toBe(2);
  });

  it("stops every thread on Ctrl-C: running agents are stopped, no step starts, exit 130", async () => {
    const threads = [await start(), await start(), await start()];
    const hold = join(temp.work, "hold");
    mkdirSync(hold);
    const log = join(temp.work, "batch.log");
    const child = temp.spawn(["step", ...threads, "--all", "--parallel", "2", "--agent", "batch-worker", "--jsonl"], {
      env: { BATCH_HOLD: hold, BATCH_LOG: log },
    });
    const started = () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").length : 0);
    await waitFor(() => started() === 2, { what: "two agents starting" });
    child.kill("SIGINT");
    expect(await child.exited).toBe(130);
    const events = parseEvents(await new Response(child.stdout as ReadableStream).text());
    const closing = events.filter((event) => event.type !== "step-started");
    expect(closing.map((event) => event.type).sort()).toEqual(["step-failed", "step-failed", "thread-stopped"]);
    for (const event of closing) {
      if (event.type === "step-failed") expect(event.error.code).toBe("interrupted");
      if (event.type === "thread-stopped") expect(event.reason).toBe("interrupted");
    }
    expect(started()).toBe(2);
    for (const thread of threads) expect((await record(thread)).stepCount).toBe(0);
  });
});

describe("uwf step … --batch-max-cost", () => {
  const env = FAKE_MODEL_ENV;
  let server: FakeAnthropicServer;
  beforeEach(() => {
    // Every round costs $1: a million input tokens at $1 per million. The worker always asks for more.
    server = startFakeModelApi(temp, {
      server: {
        defaultReply: fakeTextReply("---\n$status: more\n---\nAnother round.\n", {
          input_tokens: 1_000_000,
          output_tokens: 0,
        }),
      },
      maxTurns: 2,
      models: { cheap: { model: "claude-haiku-4-5", prices: { input: 1, output: 5 } } },
    });
  });
  afterEach(async () => {
    await server.close();
  });

  it("starts no step once the batch has spent the cap, reports every unfinished thread, exit 20", async () => {
    const threads = [await start(MODEL_LOOP), await start(MODEL_LOOP), await start(MODEL_LOOP)];
    const result = await temp.uwf(["step", ...threads, "--all", "--batch-max-cost", "2.5", "--json"], { env });
    expect(result.exitCode).toBe(20);
    const batch = stepBatchResultSchema.parse(result.json());
    // One at a time: the first thread spends $1, $2 (under the cap), then $3; then no step starts.
    expect(batch.threads.map((thread) => [thread.outcome, thread.steps.length, thread.usage.costUsd])).toEqual([
      ["stopped", 3, 3],
      ["stopped", 0, 0],
      ["stopped", 0, 0],
    ]);
    expect(batch).toMatchObject({ stoppedBy: "batch-max-cost", maxCostUsd: 2.5, exitCode: 20 });
    expect(batch.usage.costUsd).toBe(3);
    expect((await record(threads[0] as string)).usage.costUsd).toBe(3);
    expect(server.messageRequests()).toHaveLength(3);
  });

  it("lets running steps finish once the cap is reached, K at a time (--parallel 2, --jsonl)", async () => {
    const threads = [await start(MODEL_LOOP), await start(MODEL_LOOP), await start(MODEL_LOOP)];
    const result = await temp.uwf(
      ["step", ...threads, "--all", "--parallel", "2", "--batch-max-cost", "2.5", "--jsonl"],
      { env },
    );
    expect(result.exitCode).toBe(20);
    const events = parseEvents(result.stdout);
    const finished = events.filter((event) => event.type === "step-finished").length;
    // Each step began under the cap, and at most two ran at once: $3 or $4 in all, never more.
    expect(finished).toBeGreaterThanOrEqual(3);
    expect(finished).toBeLessThanOrEqual(4);
    const stopped = events.filter((event) => event.type === "thread-stopped");
    expect(stopped.map((event) => event.thread).sort()).toEqual([...threads].sort());
    expect(stopped.every((event) => event.type === "thread-stopped" && event.reason === "batch-max-cost")).toBe(true);
    let spent = 0;
    for (const thread of threads) spent += (await record(thread)).usage.costUsd;
    expect(spent).toBe(finished);
  });
});

describe("one thread, as before", () => {
  it("keeps stepResultSchema for a single thread, and --parallel makes even one a batch", async () => {
    const thread = await start();
    const single = await temp.uwf(["step", thread, "--agent", SCRIPTED, "--json"]);
    expect(stepResultSchema.parse(single.json()).steps).toHaveLength(1);
    const batch = await temp.uwf(["step", thread, "--parallel", "1", "--agent", SCRIPTED, "--json"]);
    expect(batch.exitCode).toBe(0);
    expect(stepBatchResultSchema.parse(batch.json()).threads[0]).toMatchObject({ outcome: "ended", exitCode: 0 });
  });
});
