import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { isProcessAlive, type Store } from "@uwf/cas";
import {
  errorResultSchema,
  type Lease,
  logResultSchema,
  startResultSchema,
  stepResultSchema,
  threadStepNodeSchema,
  waitResultSchema,
  workerResultSchema,
} from "@uwf/protocol";
import { expectStoreVerifies } from "../../helpers/cas-nodes.ts";
import { parseEvents, readEvents } from "../../helpers/cli-events.ts";
import { waitForSignalTaken, waitForStoreOpen } from "../../helpers/process-state.ts";
import { readHomeStore } from "../../helpers/read-home-store.ts";
import { BACKENDS, type Backend, useBackendEnv } from "../../helpers/store-backends.ts";
import { createTempHome, FIXTURES, fixtureAgentsConfig, LINEAR, type TempHome } from "../../helpers/temp-home.ts";
import { until } from "../../helpers/until.ts";

const ASK = join(FIXTURES, "workflows/ask.yaml");

/**
 * Every test runs on both backends: the home's own files and SQLite, and a PostgreSQL server (the
 * test process's, see startTestPostgres), each test with a store of its own.
 */
const backendEnv = useBackendEnv();

let temp: TempHome;
let storeEnv: Record<string, string>;
let flag: string;
let pidFile: string;
function setUp(backend: Backend) {
  storeEnv = backendEnv(backend);
  temp = createTempHome({ env: storeEnv });
  flag = join(temp.work, "failing");
  pidFile = join(temp.work, "agent.pid");
  temp.writeConfig(
    [
      ...fixtureAgentsConfig(["plan-then-do", "fail-while-flagged", "slow-valid", "sleepy", "batch-worker"]),
      "defaultAgent: plan-then-do",
      // Short waits, so retries and idle polls do not slow the tests down.
      "worker: { retries: 2, backoffMs: 20, pollMs: 50 }",
    ].join("\n"),
  );
}

/** `uwf start --queue`: a thread for workers, with a prompt of its own so that no two threads share a start node. */
async function queue(prompt: string, workflow = LINEAR): Promise<string> {
  const started = await temp.uwf(["start", workflow, "-p", prompt, "--queue", "--json"]);
  if (started.exitCode !== 0) throw new Error(`uwf start --queue exited ${started.exitCode}: ${started.stderr}`);
  return startResultSchema.parse(started.json()).thread;
}

/** Polls for what a worker in another process does; generous, since a loaded machine starts processes slowly. */
/** Reads the home's store beside the running uwf processes. */
function readStore<Result>(read: (store: Store) => Promise<Result>): Promise<Result> {
  return readHomeStore(temp.home, storeEnv, read);
}

/** Every lease in the home's store, expired or not. */
function leases(): Promise<Lease[]> {
  return readStore((store) => store.refs.listLeases());
}

for (const backend of BACKENDS) {
  describe(`on ${backend}`, () => {
    beforeEach(() => setUp(backend));
    afterEach(() => temp.cleanup());

    describe("uwf worker", () => {
      it("two workers with --concurrency 2 step twenty queued threads to their ends, never one step twice", async () => {
        const threads: string[] = [];
        for (let index = 0; index < 20; index++) threads.push(await queue(`task ${index}`));
        const workers = [0, 1].map(() => temp.spawn(["worker", "--concurrency", "2", "--once", "--jsonl"]));
        const outputs = await Promise.all(
          workers.map(async (worker) => ({
            exitCode: await worker.exited,
            stdout: await new Response(worker.stdout as ReadableStream).text(),
            stderr: await new Response(worker.stderr as ReadableStream).text(),
          })),
        );
        for (const output of outputs) {
          expect(output).toMatchObject({ exitCode: 0, stderr: "" });
          expect(parseEvents(output.stdout).at(-1)).toMatchObject({ type: "worker-stopped", reason: "idle" });
        }
        const events = outputs.flatMap((output) => parseEvents(output.stdout));
        const claims = events.filter((event) => event.type === "thread-claimed").map((event) => event.thread);
        // Every thread claimed once, by one worker or the other, and stepped to its end.
        expect(claims.sort()).toEqual([...threads].sort());
        // Read back all at once: the test is about the workers, not these commands.
        const ends = await Promise.all(
          threads.map(async (thread) => {
            const log = logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json());
            return { roles: log.steps.map((step) => step.role), status: (await temp.showThread(thread)).status };
          }),
        );
        expect(ends).toEqual(threads.map(() => ({ roles: ["planner", "doer"], status: "ended" })));
        // No head ever got two steps from the same parent, and no agent ran a step twice.
        const parents: string[] = [];
        let runs = 0;
        await readStore(async (store) => {
          for await (const address of store.objects.list()) {
            const node = (await store.objects.get(address)) as { type?: string };
            const step = threadStepNodeSchema.safeParse(node);
            if (step.success) parents.push(`${step.data.start} ${step.data.prev}`);
            if (node.type === "agent-run/1") runs++;
          }
        });
        expect(parents.length).toBe(40);
        expect(new Set(parents).size).toBe(40);
        expect(runs).toBe(40);
        await expectStoreVerifies(temp);
        expect(await temp.listThreads("--running")).toEqual([]);
      });

      it("never claims a thread started without --queue", async () => {
        const local = await temp.startThread(LINEAR);
        const queued = await queue("for a worker");
        const worked = await temp.uwf(["worker", "--once", "--json"]);
        expect(worked.exitCode).toBe(0);
        expect(workerResultSchema.parse(worked.json())).toMatchObject({ reason: "idle", claimed: 1, steps: 2 });
        expect((await temp.showThread(queued)).status).toBe("ended");
        expect(await temp.showThread(local)).toMatchObject({ status: "active", stepCount: 0 });
        // On PostgreSQL everything went to the server: the home holds no store of its own.
        expect(existsSync(join(temp.home, "refs.db"))).toBe(backend === "the embedded store");
      });

      it("logs one line per step, and its claims and releases, naming itself", async () => {
        const thread = await queue("logged");
        const worked = await temp.uwf(["worker", "--once"]);
        expect(worked.exitCode).toBe(0);
        const name = `${hostname()}:\\d+`;
        const duration = "(\\d+ms|\\d+\\.\\ds)";
        const lines = worked.stdout.trimEnd().split("\n");
        expect(lines).toHaveLength(6);
        expect(lines[0]).toMatch(new RegExp(`^${name} started: up to 1 thread at once$`));
        expect(lines[1]).toMatch(new RegExp(`^${name} ${thread} claimed \\(linear\\)$`));
        expect(lines[2]).toMatch(
          new RegExp(`^${name} ${thread} #1 planner plan-then-do · ${duration} · [0-9A-Z]{13}$`),
        );
        expect(lines[3]).toMatch(new RegExp(`^${name} ${thread} #2 doer plan-then-do · ${duration} · [0-9A-Z]{13}$`));
        expect(lines[4]).toMatch(new RegExp(`^${name} ${thread} released: ended after 2 steps$`));
        expect(lines[5]).toMatch(new RegExp(`^${name} stopped \\(idle\\): 2 steps, 1 thread claimed, 0 failed$`));
      });

      it("exits after --max-steps, leaving the thread it held active and free for the next worker", async () => {
        const thread = await queue("one step only");
        const worked = await temp.uwf(["worker", "--max-steps", "1", "--json"]);
        expect(worked.exitCode).toBe(0);
        expect(workerResultSchema.parse(worked.json())).toMatchObject({ reason: "max-steps", steps: 1 });
        expect(await temp.showThread(thread)).toMatchObject({ status: "active", stepCount: 1 });
        expect(await temp.listThreads("--running")).toEqual([]);
        expect((await temp.uwf(["worker", "--once"])).exitCode).toBe(0);
        expect((await temp.showThread(thread)).status).toBe("ended");
      });

      it("retries a failing step, sets the thread failed, and `uwf resume` makes it active again and steps it", async () => {
        writeFileSync(flag, "");
        const thread = await queue("during an outage");
        const worked = await temp.uwf(["worker", "--once", "--agent", "fail-while-flagged", "--jsonl"], {
          env: { FAIL_FLAG: flag },
        });
        expect(worked.exitCode).toBe(0);
        const events = parseEvents(worked.stdout).filter((event) => event.thread === thread);
        // Three attempts, a step-retry between each two, then the thread is failed and let go.
        const attempt = ["step-started", "step-failed"];
        const attempts = [...attempt, "step-retry", ...attempt, "step-retry", ...attempt];
        expect(events.map((event) => event.type) as string[]).toEqual([
          "thread-claimed",
          ...attempts,
          "thread-failed",
          "thread-released",
        ]);
        expect(events.filter((event) => event.type === "step-retry")).toMatchObject([
          { attempt: 2, attempts: 3, delayMs: 20 },
          { attempt: 3, attempts: 3, delayMs: 40 },
        ]);
        const failed = await temp.showThread(thread);
        expect(failed).toMatchObject({
          status: "failed",
          stepCount: 0,
          failure: { code: "agent-failed", attempts: 3 },
        });
        expect(failed.failure?.message).toContain("the service is down");

        const shown = await temp.uwf(["show", thread]);
        expect(shown.stdout).toMatch(/^failure {5}agent-failed: .*the service is down.*\(3 attempts, /m);
        const listed = await temp.uwf(["list"]);
        expect(listed.stdout).toContain(`${thread}  failed (agent-failed)`);
        expect((await temp.uwf(["list", "--status", "failed", "--json"])).json()).toMatchObject({ total: 1 });

        // `uwf step` tries a failed thread's step again: while the outage lasts it fails again, its attempts counted on.
        const again = await temp.uwf(["step", thread, "--agent", "fail-while-flagged", "--json"], {
          env: { FAIL_FLAG: flag },
        });
        expect(again.exitCode).toBe(1);
        expect(errorResultSchema.parse(JSON.parse(again.stderr)).error.code).toBe("agent-failed");
        expect(stepResultSchema.parse(again.json())).toMatchObject({
          status: "failed",
          steps: [],
          failure: { code: "agent-failed", attempts: 4 },
        });
        expect(again.stderr).not.toContain("thread-failed");

        // Once the outage is over, `uwf resume` takes the step here; a worker then takes the thread to its end.
        const resumed = await temp.uwf(["resume", thread, "--agent", "fail-while-flagged", "--json"]);
        expect(resumed.exitCode).toBe(0);
        expect(stepResultSchema.parse(resumed.json())).toMatchObject({
          status: "active",
          steps: [{ role: "planner" }],
        });
        const active = await temp.showThread(thread);
        expect(active.failure).toBeUndefined();
        expect((await temp.uwf(["worker", "--once"])).exitCode).toBe(0);
        expect(await temp.showThread(thread)).toMatchObject({ status: "ended", stepCount: 2 });
      });

      it("`uwf resume --queue` puts a failed thread back for the next worker", async () => {
        writeFileSync(flag, "");
        const thread = await queue("back to the queue");
        const env = { FAIL_FLAG: flag };
        expect((await temp.uwf(["worker", "--once", "--agent", "fail-while-flagged", "-q"], { env })).exitCode).toBe(0);
        expect((await temp.showThread(thread)).status).toBe("failed");

        // Only a failed thread goes back, and with no answer.
        const answered = await temp.uwf(["resume", thread, "--queue", "-p", "try again"]);
        expect(answered.exitCode).toBe(2);
        expect((await temp.showThread(thread)).status).toBe("failed");

        const requeued = await temp.uwf(["resume", thread, "--queue"]);
        expect(requeued).toMatchObject({
          exitCode: 0,
          stdout: `thread ${thread} is active again and queued for a worker\n`,
        });
        const record = await temp.showThread(thread);
        expect(record).toMatchObject({ status: "active", queued: true, stepCount: 0 });
        expect(record.failure).toBeUndefined();
        const again = await temp.uwf(["resume", thread, "--queue"]);
        expect(again.exitCode).toBe(2);
        expect(again.stderr).toContain(`thread ${thread} is active, not failed`);

        rmSync(flag);
        expect((await temp.uwf(["worker", "--once", "--agent", "fail-while-flagged"], { env })).exitCode).toBe(0);
        expect(await temp.showThread(thread)).toMatchObject({ status: "ended", stepCount: 2 });
      });

      it("`uwf queue` leaves an active thread to the next worker, puts a failed one back, refuses an ended one", async () => {
        const started = await temp.uwf(["start", LINEAR, "-p", "queue me later", "--json"]);
        const thread = startResultSchema.parse(started.json()).thread;
        // Not queued: a worker leaves it alone.
        expect((await temp.uwf(["worker", "--once", "-q"])).exitCode).toBe(0);
        expect(await temp.showThread(thread)).toMatchObject({ status: "active", stepCount: 0 });

        const queued = await temp.uwf(["queue", thread.slice(0, 10), "--json"]);
        expect(queued.exitCode).toBe(0);
        expect(queued.json()).toMatchObject({ id: thread, status: "active", queued: true });
        const twice = await temp.uwf(["queue", thread]);
        expect(twice).toMatchObject({ exitCode: 0, stdout: `thread ${thread} was already queued; nothing changed\n` });
        expect((await temp.uwf(["worker", "--once", "-q"])).exitCode).toBe(0);
        expect(await temp.showThread(thread)).toMatchObject({ status: "ended", stepCount: 2 });

        // An ended thread has nothing for a worker: refused as `uwf step` refuses it, and left as it was.
        const ended = await temp.uwf(["queue", thread, "--json"]);
        expect(ended.exitCode).toBe(10);
        expect(errorResultSchema.parse(JSON.parse(ended.stderr)).error).toMatchObject({
          code: "thread-ended",
          message: `thread ${thread} has ended; nothing to do (\`uwf resume\` continues it if its workflow allows)`,
        });
        expect((await temp.showThread(thread)).status).toBe("ended");

        // A failed thread is made active and queued, as `uwf resume --queue` does.
        writeFileSync(flag, "");
        const failing = await queue("fails, then queued again");
        const env = { FAIL_FLAG: flag };
        expect((await temp.uwf(["worker", "--once", "--agent", "fail-while-flagged", "-q"], { env })).exitCode).toBe(0);
        expect((await temp.showThread(failing)).status).toBe("failed");
        const requeued = await temp.uwf(["queue", failing]);
        expect(requeued).toMatchObject({
          exitCode: 0,
          stdout: `thread ${failing} is queued for a worker (\`uwf worker\` steps it)\n`,
        });
        const record = await temp.showThread(failing);
        expect(record).toMatchObject({ status: "active", queued: true });
        expect(record.failure).toBeUndefined();

        const cancelled = await temp.uwf(["start", LINEAR, "-p", "cancelled", "--json"]);
        const cancelledThread = startResultSchema.parse(cancelled.json()).thread;
        expect((await temp.uwf(["cancel", cancelledThread])).exitCode).toBe(0);
        const refused = await temp.uwf(["queue", cancelledThread]);
        expect(refused.exitCode).toBe(1);
        expect(refused.stderr).toContain(`thread ${cancelledThread} was cancelled and takes no more steps`);
        expect((await temp.showThread(cancelledThread)).queued).toBeUndefined();
      }, 30_000);

      it("on SIGTERM claims nothing more, lets the running step finish, releases the lease and exits 0", async () => {
        const thread = await queue("slow");
        const second = await queue("never claimed");
        const worker = temp.spawn(["worker", "--agent", "slow-valid", "--jsonl"], { env: { PID_FILE: pidFile } });
        const output = readEvents(worker.stdout as ReadableStream<Uint8Array>);
        await output.until((event) => event.type === "thread-claimed" && event.thread === thread, "the claim");
        await until(() => existsSync(pidFile), "the agent starting");
        expect((await temp.listThreads("--running")).map((running) => running.thread)).toEqual([thread]);
        worker.kill("SIGTERM");
        // The step goes on after the signal: its lease is still held until the agent answers.
        await waitForSignalTaken(worker.pid);
        expect(worker.exitCode).toBeNull();
        expect((await temp.listThreads("--running")).map((running) => running.thread)).toEqual([thread]);
        writeFileSync(`${pidFile}.release`, "");
        expect(await worker.exited).toBe(0);
        const events = await output.all();
        expect(events.filter((event) => event.type === "step-finished")).toMatchObject([{ thread, number: 1 }]);
        expect(events.at(-2)).toMatchObject({ type: "thread-released", thread, reason: "stopping", status: "active" });
        expect(events.at(-1)).toMatchObject({ type: "worker-stopped", reason: "signal", steps: 1, claimed: 1 });
        expect(await temp.showThread(thread)).toMatchObject({ status: "active", stepCount: 1 });
        expect(await temp.showThread(second)).toMatchObject({ status: "active", stepCount: 0 });
        expect(await temp.listThreads("--running")).toEqual([]);
      });

      it("stops a step still running when the grace runs out, keeping what its agent wrote, and exits 0", async () => {
        const thread = await queue("endless");
        const worker = temp.spawn(["worker", "--agent", "sleepy", "--grace", "1", "--jsonl"], {
          env: { PID_FILE: pidFile },
        });
        await until(() => existsSync(pidFile), "the agent starting");
        worker.kill("SIGTERM");
        expect(await worker.exited).toBe(0);
        const events = parseEvents(await new Response(worker.stdout as ReadableStream).text());
        const failed = events.find((event) => event.type === "step-failed");
        expect(failed).toMatchObject({ thread, error: { code: "interrupted" } });
        expect(failed?.type === "step-failed" ? failed.run : null).toMatch(/^[0-9A-Z]{13}$/);
        expect(events.at(-2)).toMatchObject({ type: "thread-released", reason: "interrupted", status: "active" });
        expect(await temp.showThread(thread)).toMatchObject({ status: "active", stepCount: 0 });
        expect(await temp.listThreads("--running")).toEqual([]);
      });

      it("stops running steps at once on a second signal", async () => {
        const thread = await queue("endless");
        const worker = temp.spawn(["worker", "--agent", "sleepy", "--grace", "600"], { env: { PID_FILE: pidFile } });
        await until(() => existsSync(pidFile), "the agent starting");
        worker.kill("SIGTERM");
        await waitForSignalTaken(worker.pid);
        expect(worker.exitCode).toBeNull();
        worker.kill("SIGTERM");
        expect(await worker.exited).toBe(0);
        expect(await temp.showThread(thread)).toMatchObject({ status: "active", stepCount: 0 });
        expect(await temp.listThreads("--running")).toEqual([]);
      });

      it("drains on SIGINT too, but exits 130, as other commands do", async () => {
        const thread = await queue("slow");
        const worker = temp.spawn(["worker", "--agent", "slow-valid"], { env: { PID_FILE: pidFile } });
        await until(() => existsSync(pidFile), "the agent starting");
        worker.kill("SIGINT");
        writeFileSync(`${pidFile}.release`, "");
        expect(await worker.exited).toBe(130);
        expect(await temp.showThread(thread)).toMatchObject({ status: "active", stepCount: 1 });
        expect(await temp.listThreads("--running")).toEqual([]);
      });
    });

    describe("a worker that dies", () => {
      it("killed with SIGKILL mid-step, leaves its thread to the next worker on this host at once, its agent stopped", async () => {
        const thread = await queue("orphaned");
        const first = temp.spawn(["worker", "--agent", "sleepy"], { env: { PID_FILE: pidFile } });
        await until(() => existsSync(pidFile) && existsSync(`${pidFile}.child`), "the agent writing its pids");
        const shell = Number(readFileSync(pidFile, "utf8"));
        const sleeper = Number(readFileSync(`${pidFile}.child`, "utf8"));
        await until(async () => (await leases())[0]?.agentGroup === shell, "the lease naming the agent's group");
        first.kill("SIGKILL");
        await first.exited;
        expect(isProcessAlive(sleeper)).toBe(true);
        // Its lease is still there, but `list --running` does not count a holder of this host that is gone.
        expect(await leases()).toMatchObject([{ pid: first.pid }]);
        expect(await temp.listThreads("--running")).toEqual([]);

        // The dead worker's lease has not expired (60 s), yet the next worker takes the thread over at once.
        const second = await temp.uwf(["worker", "--once", "--json"]);
        expect(second.exitCode).toBe(0);
        expect(workerResultSchema.parse(second.json())).toMatchObject({ claimed: 1, steps: 2 });
        expect(await temp.showThread(thread)).toMatchObject({ status: "ended", stepCount: 2 });
        await until(() => !isProcessAlive(sleeper), "the orphaned agent stopping");
        expect(await leases()).toEqual([]);
      });
    });

    describe("uwf list --running", () => {
      it("names the worker holding each thread being stepped, since and until when", async () => {
        const thread = await queue("held");
        const worker = temp.spawn(["worker", "--agent", "slow-valid"], { env: { PID_FILE: pidFile } });
        await until(() => existsSync(pidFile), "the agent starting");
        const [running, ...others] = await temp.listThreads("--running");
        expect(others).toEqual([]);
        expect(running).toMatchObject({ thread, status: "active", lease: { host: hostname(), pid: worker.pid } });
        const { acquiredAt, expiresAt } = running?.lease ?? { acquiredAt: "", expiresAt: "" };
        expect(Date.parse(expiresAt)).toBeGreaterThan(Date.parse(acquiredAt));
        const text = await temp.uwf(["list", "--running"]);
        expect(text.stdout).toContain("HELD BY");
        expect(text.stdout).toContain(`${hostname()}:${worker.pid}`);
        writeFileSync(`${pidFile}.release`, "");
        worker.kill("SIGTERM");
        expect(await worker.exited).toBe(0);
        expect(await temp.listThreads("--running")).toEqual([]);
      });
    });

    describe("uwf wait", () => {
      it("waits for `run --queue`'s thread until a worker ends it, then exits 0, so `&&` goes on", async () => {
        const started = await temp.uwf(["run", LINEAR, "-p", "queued run", "--queue"]);
        expect(started.exitCode).toBe(0);
        const thread = started.stdout.trim();
        expect(await temp.showThread(thread)).toMatchObject({ status: "active", stepCount: 0, queued: true });
        const waiting = temp.spawn(["wait", thread, "--json"]);
        // It reads the thread as soon as its store is open: from then on it waits for the worker.
        await waitForStoreOpen(waiting.pid);
        expect(waiting.exitCode).toBeNull();
        expect((await temp.uwf(["worker", "--once", "-q"])).exitCode).toBe(0);
        expect(await waiting.exited).toBe(0);
        const result = waitResultSchema.parse(JSON.parse(await new Response(waiting.stdout as ReadableStream).text()));
        expect(result).toMatchObject({
          exitCode: 0,
          threads: [{ thread, status: "ended", next: "$END", exitCode: 0, outcome: { role: "doer" } }],
        });
      });

      it("exits with the most severe code of several threads: failed over suspended over ended", async () => {
        writeFileSync(flag, "");
        const ended = await queue("ends");
        const suspended = await queue("asks", ASK);
        expect((await temp.uwf(["worker", "--once", "--agent", "batch-worker", "-q"])).exitCode).toBe(0);
        expect((await temp.uwf(["wait", ended])).exitCode).toBe(0);
        const asking = await temp.uwf(["wait", suspended, ended]);
        expect(asking.exitCode).toBe(20);
        expect(asking.stdout).toBe(`${suspended} suspended — Which colour?\n${ended} ended (doer)\n`);

        const failed = await queue("fails");
        const env = { FAIL_FLAG: flag };
        expect((await temp.uwf(["worker", "--once", "--agent", "fail-while-flagged", "-q"], { env })).exitCode).toBe(0);
        const all = await temp.uwf(["wait", ended, suspended, failed, "--json"]);
        expect(all.exitCode).toBe(1);
        expect(waitResultSchema.parse(all.json()).threads.map((waited) => [waited.status, waited.exitCode])).toEqual([
          ["ended", 0],
          ["suspended", 20],
          ["failed", 1],
        ]);
      });

      it("gives up after --timeout with exit 75, printing where each thread stands", async () => {
        const thread = await queue("nobody steps it");
        const waited = await temp.uwf(["wait", thread, "--timeout", "0.3", "--json"]);
        expect(waited.exitCode).toBe(75);
        const error = errorResultSchema.parse(JSON.parse(waited.stderr)).error;
        expect(error).toMatchObject({ code: "wait-timeout", data: { threads: [thread] } });
        expect(waitResultSchema.parse(waited.json()).threads).toMatchObject([
          { thread, status: "active", exitCode: 75 },
        ]);
        const text = await temp.uwf(["wait", thread, "--timeout", "0.2"]);
        expect(text.exitCode).toBe(75);
        expect(text.stderr).toBe(`uwf: waited 0.2 s and thread ${thread} is still active\n`);
      });

      it("fails at once for a thread that does not exist", async () => {
        const waited = await temp.uwf(["wait", "01JNOSUCHTHREAD00000000000"]);
        expect(waited.exitCode).toBe(1);
        expect(waited.stderr).toContain("01JNOSUCHTHREAD00000000000");
      });
    });
  });
}
