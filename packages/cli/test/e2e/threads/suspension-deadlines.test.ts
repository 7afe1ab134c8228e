import { afterEach, describe, expect, it } from "bun:test";
import {
  logResultSchema,
  startResultSchema,
  stepResultSchema,
  suspensionTimedOutEventSchema,
  threadStepNodeSchema,
} from "@uwf/protocol";
import { parseEvents, readEvents } from "../../helpers/cli-events.ts";
import { BACKENDS, type Backend, useBackendEnv } from "../../helpers/store-backends.ts";
import { createTempHome, fixtureScenario, fixtureWorkflow, type TempHome } from "../../helpers/temp-home.ts";

/** `$timeout: { role: chaser }`, a map key. */
const WAIT = fixtureWorkflow("wait");
/** The same graph as a list, its edge `condition: $timeout`. */
const WAIT_LIST = fixtureWorkflow("wait-list");
/** `suspendTimeout: 2s` and no `$timeout` edge. */
const WAIT_FAIL = fixtureWorkflow("wait-fail");
const SCENARIO = fixtureScenario("wait");
/** The fixtures' `suspendTimeout`. */
const WAIT_MS = 2000;

/** Every test runs on both backends: the embedded store (SQLite) and PostgreSQL, whose clock decides. */
const backendEnv = useBackendEnv();

let temp: TempHome | undefined;
const running: ReturnType<TempHome["spawn"]>[] = [];
afterEach(async () => {
  for (const process of running.splice(0)) {
    process.kill("SIGKILL");
    await process.exited;
  }
  temp?.cleanup();
  temp = undefined;
});

function home(backend: Backend): TempHome {
  temp = createTempHome({ env: backendEnv(backend) });
  temp.writeConfig(
    [
      "agents:",
      `  waiter: { builtin: scripted, scenario: "${SCENARIO}" }`,
      "defaultAgent: waiter",
      "worker: { pollMs: 50 }",
    ].join("\n"),
  );
  return temp;
}

async function uwf(args: string[]) {
  const run = await (temp as TempHome).uwf(args);
  return run;
}

const show = (thread: string) => (temp as TempHome).showThread(thread);

const listThreads = () => (temp as TempHome).listThreads();

async function stepRoles(thread: string): Promise<string[]> {
  const run = await uwf(["log", thread, "--json"]);
  expect(run.exitCode).toBe(0);
  return logResultSchema.parse(run.json()).steps.map((step) => `${step.role}:${step.agent}`);
}

/** A thread of `workflow` run until its first role suspends (exit 20), as `uwf run` leaves it: not queued. */
async function suspendedThread(workflow: string): Promise<string> {
  const run = await uwf(["run", workflow, "-p", "Which colour?", "--json"]);
  expect(run.exitCode).toBe(20);
  return stepResultSchema.parse(run.json()).thread;
}

/** Waits until the thread's deadline (its suspendTimeout after it suspended) has passed by the wall clock. */
async function pastDeadline(thread: string): Promise<void> {
  const deadline = (await listThreads()).find((entry) => entry.id === thread)?.deadline;
  expect(deadline).toBeDefined();
  const wait = Date.parse(deadline as string) - Date.now() + 100;
  if (wait > 0) await Bun.sleep(wait);
}

/** The suspension-timed-out events of what `uwf worker --jsonl` printed. */
function timedOut(stdout: string) {
  return parseEvents(stdout).filter((event) => event.type === "suspension-timed-out");
}

for (const backend of BACKENDS) {
  describe(`suspension deadlines on ${backend}`, () => {
    for (const [style, workflow] of [
      ["a $timeout map key", WAIT],
      ["an edge list with condition: $timeout", WAIT_LIST],
    ] as const) {
      it(`a worker takes ${style} once the suspension's suspendTimeout passes, and steps on`, async () => {
        const temp = home(backend);
        const started = await uwf(["start", workflow, "-p", "Which colour?", "--queue", "--json"]);
        expect(started.exitCode).toBe(0);
        const thread = startResultSchema.parse(started.json()).thread;
        const worker = temp.spawn(["worker", "--jsonl"]);
        running.push(worker);
        const events = readEvents(worker.stdout as ReadableStream<Uint8Array>);
        await events.until(
          (event) => event.type === "thread-released" && event.status === "suspended",
          "the thread suspended",
        );
        const timeout = await events.until((event) => event.type === "suspension-timed-out", "the timeout", 30_000);
        expect(timeout).toMatchObject({ thread, role: "asker", routed: "chaser", status: "active" });
        // Still queued, so the worker claims it and the chaser steps to the end.
        await events.until((event) => event.type === "thread-ended", "the chaser's end", 30_000);
        worker.kill("SIGTERM");
        await worker.exited;
        expect(await stepRoles(thread)).toEqual(["asker:waiter", "asker:$timeout", "chaser:waiter"]);

        const shown = await show(thread);
        expect(shown).toMatchObject({ status: "ended", outcome: { role: "chaser" } });
        const log = logResultSchema.parse((await uwf(["log", thread, "--json"])).json());
        const node = threadStepNodeSchema.parse(
          (await uwf(["show", log.steps[1]?.address as string, "--json"])).json<{ node: unknown }>().node,
        );
        expect(node.timedOut?.after).toBe("2s");
        expect(Date.parse(node.timedOut?.deadline as string) - Date.parse(node.timedOut?.suspendedAt as string)).toBe(
          WAIT_MS,
        );
        // Not early: the worker took the timeout at or after the deadline, by its own clock (the times the
        // test sees events at depend on how soon they reach it).
        expect(Date.parse(suspensionTimedOutEventSchema.parse(timeout).at)).toBeGreaterThanOrEqual(
          Date.parse(node.timedOut?.deadline as string),
        );
        expect(node.edgePrompt).toStartWith("No answer came within 2s");
      });
    }

    it("a deadline not yet passed leaves the thread alone; past it, a thread without a $timeout edge fails with suspend-timeout and is answered late", async () => {
      home(backend);
      const thread = await suspendedThread(WAIT_FAIL);
      const early = await uwf(["worker", "--once", "--jsonl"]);
      expect(early.exitCode).toBe(0);
      expect(early.stdout).not.toContain("suspension-timed-out");
      expect((await show(thread)).status).toBe("suspended");

      await pastDeadline(thread);
      const late = await uwf(["worker", "--once", "--jsonl"]);
      expect(late.exitCode).toBe(0);
      expect(timedOut(late.stdout)).toEqual([
        expect.objectContaining({ thread, role: "asker", routed: null, status: "failed" }),
      ]);
      const failed = await show(thread);
      expect(failed).toMatchObject({
        status: "failed",
        next: "asker",
        stepCount: 1,
        failure: { code: "suspend-timeout" },
      });
      expect(failed.failure?.message).toContain("role asker waited 2s for an answer");
      expect(failed.failure?.message).toContain("has no $timeout edge");
      // No step was recorded: the suspension is still the head.
      expect(await stepRoles(thread)).toEqual(["asker:waiter"]);
      const list = await uwf(["list"]);
      expect(list.stdout).toContain("failed (suspend-timeout)");

      // It takes no retry, here or by a worker, only an answer.
      for (const args of [
        ["resume", thread],
        ["step", thread],
        ["queue", thread],
        ["resume", thread, "--queue"],
      ]) {
        const retried = await uwf(args);
        expect({ args, exitCode: retried.exitCode }).toEqual({ args, exitCode: 2 });
        expect(retried.stderr).toContain("waits for an answer to its asker role");
      }
      expect(await show(thread)).toMatchObject({ status: "failed", failure: { code: "suspend-timeout" } });
      const answered = await uwf(["resume", thread, "-p", "blue", "--json"]);
      expect(answered.exitCode).toBe(0);
      const after = await show(thread);
      expect(after).toMatchObject({ status: "ended", outcome: { role: "asker", status: "done" } });
      expect(after.failure).toBeUndefined();
      expect(await stepRoles(thread)).toEqual(["asker:waiter", "asker:waiter"]);
    });

    it("three workers past the deadline record one timeout step", async () => {
      const temp = home(backend);
      const thread = await suspendedThread(WAIT);
      await pastDeadline(thread);
      const workers = [0, 1, 2].map(() => temp.spawn(["worker", "--once", "--jsonl"]));
      running.push(...workers);
      const outputs = await Promise.all(workers.map((worker) => new Response(worker.stdout as ReadableStream).text()));
      for (const worker of workers) expect(await worker.exited).toBe(0);
      expect(outputs.flatMap(timedOut)).toEqual([expect.objectContaining({ thread, routed: "chaser" })]);
      // Not queued: no worker steps it; it waits for `uwf step`.
      expect(await stepRoles(thread)).toEqual(["asker:waiter", "asker:$timeout"]);
      expect(await show(thread)).toMatchObject({ status: "active", next: "chaser", reason: null });
      const stepped = await uwf(["step", thread]);
      expect(stepped.exitCode).toBe(0);
      expect(await stepRoles(thread)).toEqual(["asker:waiter", "asker:$timeout", "chaser:waiter"]);
    });
  });
}

it("show and list give a suspension's deadline", async () => {
  home("the embedded store");
  const before = Date.now();
  const thread = await suspendedThread(WAIT);
  const [listed] = await listThreads();
  const deadline = Date.parse(listed?.deadline as string);
  expect(deadline).toBeGreaterThanOrEqual(before + WAIT_MS);
  expect(deadline).toBeLessThanOrEqual(Date.now() + WAIT_MS);
  expect((await uwf(["list"])).stdout).toContain("suspended (until ");
  const text = await uwf(["show", thread]);
  expect(text.stdout).toContain(`deadline    ${listed?.deadline} (suspendTimeout 2s)`);
});

it("a fork of a suspended head lists with its suspension's deadline, and a tick leaves it waiting", async () => {
  home("the embedded store");
  const thread = await suspendedThread(WAIT);
  const [original] = await listThreads();
  const head = (await show(thread)).head;
  const forked = await uwf(["fork", head, "--json"]);
  expect(forked.exitCode).toBe(0);
  const fork = (forked.json() as { thread: string }).thread;
  // The fork's record is due at once for the index; what list shows is the suspension's own deadline.
  const listed = await listThreads();
  expect(listed.find((entry) => entry.id === fork)?.deadline).toBe(original?.deadline as string);
  // Ticked as of a second before that deadline, however long the steps above took on a loaded machine.
  const before = new Date(Date.parse(original?.deadline as string) - 1000).toISOString();
  const tick = await uwf(["tick", "--at", before, "--json"]);
  expect(tick.exitCode).toBe(0);
  expect((tick.json() as { expired: unknown[] }).expired).toEqual([]);
  const shown = await show(fork);
  expect(shown.status).toBe("suspended");
  // The record's deadline is the store's index, not shown: `show` gives the suspension's own as a row.
  expect(shown).not.toHaveProperty("deadline");
});

it("uwf tick from a shell loop times out a due suspension once and runs the routed thread here to its end", async () => {
  const temp = home("the embedded store");
  const thread = await suspendedThread(WAIT);
  // A system cron's ticks, one a second: the first ones find nothing due, one times it out and runs the
  // chaser here (the thread is not queued, so no worker would), the rest find nothing again.
  const loop = await temp.shell('for i in 1 2 3 4; do $UWF tick --json; echo "exit $?"; sleep 1; done');
  expect(loop.exitCode).toBe(0);
  const ticks = loop.stdout
    .trim()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { expired: unknown[]; ran: unknown[] });
  expect(loop.stdout.match(/^exit 0$/gm)?.length).toBe(4);
  expect(ticks.flatMap((tick) => tick.expired)).toEqual([
    expect.objectContaining({ thread, role: "asker", routed: "chaser", status: "active" }),
  ]);
  expect(ticks.flatMap((tick) => tick.ran)).toEqual([{ thread, status: "ended", steps: 1 }]);
  expect(await stepRoles(thread)).toEqual(["asker:waiter", "asker:$timeout", "chaser:waiter"]);
});
