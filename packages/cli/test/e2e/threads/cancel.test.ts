import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { isProcessAlive, isProcessGroupAlive, type Store } from "@uwf/cas";
import { waitFor } from "@uwf/cas/test";
import { errorResultSchema, type Lease, shownThreadSchema, startResultSchema } from "@uwf/protocol";
import { openStoreFromEnvironment } from "../../../src/home/open-store.ts";
import { parseEvents } from "../../helpers/cli-events.ts";
import { BACKENDS, useBackendEnv } from "../../helpers/store-backends.ts";
import {
  createTempHome,
  FIXTURES,
  fixtureWorkflow,
  LINEAR,
  scriptedFixture,
  type TempHome,
} from "../../helpers/temp-home.ts";

let temp: TempHome;
beforeEach(() => {
  temp = createTempHome();
});
afterEach(() => temp.cleanup());

const start = (name: string) => temp.startThread(fixtureWorkflow(name), "The task");

const record = (thread: string) => temp.showThread(thread);

describe("uwf cancel", () => {
  it("cancels an active thread, which then refuses steps", async () => {
    const thread = await start("linear");
    const cancelled = await temp.uwf(["cancel", thread, "--json"]);
    expect(cancelled.exitCode).toBe(0);
    expect(shownThreadSchema.parse(cancelled.json()).status).toBe("cancelled");
    expect((await record(thread)).status).toBe("cancelled");
    expect((await temp.uwf(["step", thread, "--agent", scriptedFixture("linear")])).exitCode).toBe(1);
  });

  it("cancels a suspended thread", async () => {
    const thread = await start("ask");
    expect((await temp.uwf(["step", thread, "--agent", scriptedFixture("ask")])).exitCode).toBe(20);
    const cancelled = await temp.uwf(["cancel", thread]);
    expect(cancelled.exitCode).toBe(0);
    expect(cancelled.stdout).toBe(`thread ${thread} cancelled\n`);
    expect((await record(thread)).status).toBe("cancelled");
  });

  it("refuses an ended thread with exit 1 and a clear message, and leaves its record as it was", async () => {
    const thread = await start("linear");
    expect((await temp.uwf(["step", thread, "--all", "--agent", scriptedFixture("linear")])).exitCode).toBe(0);
    const before = await record(thread);
    expect(before.status).toBe("ended");

    const refused = await temp.uwf(["cancel", thread]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(
      `thread ${thread} has already ended; cancel stops only an active or suspended thread, so nothing was changed`,
    );
    expect(await record(thread)).toEqual(before);

    const asJson = await temp.uwf(["cancel", thread, "--json"]);
    expect(asJson.exitCode).toBe(1);
    const { error } = JSON.parse(asJson.stderr) as { error: { code: string; data: { thread: string } } };
    expect(error.code).toBe("thread-already-ended");
    expect(error.data.thread).toBe(thread);
    expect(await record(thread)).toEqual(before);
  });

  it("changes nothing and succeeds on a thread already cancelled", async () => {
    const thread = await start("linear");
    expect((await temp.uwf(["cancel", thread])).exitCode).toBe(0);
    const before = await record(thread);

    const again = await temp.uwf(["cancel", thread]);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toBe(`thread ${thread} was already cancelled; nothing changed\n`);
    const asJson = await temp.uwf(["cancel", thread, "--json"]);
    expect(asJson.exitCode).toBe(0);
    expect(shownThreadSchema.parse(asJson.json())).toEqual(before);
    expect(await record(thread)).toEqual(before);
  });
});

/**
 * A thread being stepped, on both backends: the home's own files and SQLite, and a PostgreSQL server
 * (the test process's, see startTestPostgres), each test with a store of its own.
 */
const backendEnv = useBackendEnv();

for (const backend of BACKENDS) {
  describe(`uwf cancel of a thread being stepped, on ${backend}`, () => {
    let storeEnv: Record<string, string>;
    let pidFile: string;
    beforeEach(() => {
      storeEnv = backendEnv(backend);
      temp.cleanup();
      temp = createTempHome({ env: storeEnv });
      pidFile = join(temp.work, "agent.pid");
      const sleepy = join(FIXTURES, "agents/sleepy.sh");
      temp.writeConfig(["agents:", "  sleepy:", "    command: sh", `    args: ["${sleepy}"]`].join("\n"));
    });

    /** Every lease in the home's store, read beside the running uwf processes. */
    async function leases(): Promise<Lease[]> {
      const store: Store = await openStoreFromEnvironment(temp.home, storeEnv);
      try {
        return await store.refs.listLeases();
      } finally {
        await store.close();
      }
    }

    /** Waits until the agent (sleepy.sh: a shell and its `sleep 300`) runs and the lease names its group. */
    async function agentRunning() {
      const what = "the agent writing its pids, and the lease naming its group";
      await waitFor(
        async () =>
          existsSync(`${pidFile}.child`) &&
          existsSync(pidFile) &&
          (await leases())[0]?.agentGroup === Number(readFileSync(pidFile, "utf8")),
        { what, timeoutMs: 30_000, intervalMs: 25 },
      );
      return {
        group: Number(readFileSync(pidFile, "utf8")),
        sleeper: Number(readFileSync(`${pidFile}.child`, "utf8")),
      };
    }

    it("stops a worker's step: its agent's group is gone, its run kept, the thread cancelled, and cancel exits 0", async () => {
      const started = await temp.uwf(["start", LINEAR, "-p", "endless", "--queue", "--json"]);
      const thread = startResultSchema.parse(started.json()).thread;
      const worker = temp.spawn(["worker", "--once", "--agent", "sleepy", "--jsonl"], { env: { PID_FILE: pidFile } });
      const { group, sleeper } = await agentRunning();

      const cancelled = await temp.uwf(["cancel", thread]);
      expect(cancelled.stderr).toBe("");
      expect(cancelled.exitCode).toBe(0);
      expect(cancelled.stdout).toBe(
        `thread ${thread} cancelled (pid ${worker.pid} on ${hostname()} was stepping it)\n`,
      );
      expect(await temp.showThread(thread)).toMatchObject({ status: "cancelled", stepCount: 0 });
      expect(isProcessGroupAlive(group)).toBe(false);
      expect(isProcessAlive(sleeper)).toBe(false);
      expect(await leases()).toEqual([]);

      // The worker let the thread go cancelled, found nothing more to claim, and stopped.
      expect(await worker.exited).toBe(0);
      const events = parseEvents(await new Response(worker.stdout as ReadableStream).text());
      const failed = events.find((event) => event.type === "step-failed");
      expect(failed).toMatchObject({ thread, error: { code: "thread-cancelled" } });
      const run = failed?.type === "step-failed" ? failed.run : null;
      expect((await temp.uwf(["show", String(run), "--reply"])).stdout).toContain("partial output before the wait");
      expect(events.find((event) => event.type === "thread-released")).toMatchObject({
        thread,
        status: "cancelled",
        reason: "cancelled",
      });
    }, 60_000);

    it("stops a `uwf step` run from another process, which exits 1 naming the run that keeps its agent's output", async () => {
      const thread = await temp.startThread(LINEAR);
      const stepper = temp.spawn(["step", thread, "--agent", "sleepy"], { env: { PID_FILE: pidFile } });
      const { group, sleeper } = await agentRunning();

      const cancelled = await temp.uwf(["cancel", thread, "--json"]);
      expect(cancelled.exitCode).toBe(0);
      expect(shownThreadSchema.parse(cancelled.json())).toMatchObject({ id: thread, status: "cancelled" });
      expect(isProcessGroupAlive(group)).toBe(false);
      expect(isProcessAlive(sleeper)).toBe(false);

      expect(await stepper.exited).toBe(1);
      const stderr = await new Response(stepper.stderr as ReadableStream).text();
      const run = new RegExp(
        `^uwf: thread ${thread} was cancelled \\(uwf cancel\\) while it stepped, so its agent was stopped; ` +
          "what the agent had written is kept in run ([0-9A-Z]{13})",
      ).exec(stderr)?.[1];
      expect((await temp.uwf(["show", String(run), "--reply"])).stdout).toContain("partial output before the wait");
      expect(await temp.showThread(thread)).toMatchObject({ status: "cancelled", stepCount: 0 });
      expect(await leases()).toEqual([]);
    }, 60_000);

    it("with --no-wait returns once the request is recorded; the step then stops and the thread ends cancelled", async () => {
      const thread = await temp.startThread(LINEAR);
      const stepper = temp.spawn(["step", thread, "--agent", "sleepy", "--json"], { env: { PID_FILE: pidFile } });
      const { group } = await agentRunning();

      const asked = await temp.uwf(["cancel", thread, "--no-wait"]);
      expect(asked.exitCode).toBe(0);
      expect(asked.stdout).toBe(
        `thread ${thread}: asked pid ${stepper.pid} on ${hostname()}, which is stepping it, to stop and cancel it\n`,
      );
      expect(await stepper.exited).toBe(1);
      const { error } = errorResultSchema.parse(
        JSON.parse(await new Response(stepper.stderr as ReadableStream).text()),
      );
      expect(error).toMatchObject({ code: "thread-cancelled", data: { thread } });
      await waitFor(async () => (await temp.showThread(thread)).status === "cancelled", {
        what: "the thread cancelled",
      });
      expect(isProcessGroupAlive(group)).toBe(false);
    }, 60_000);

    it("gives up after --timeout with exit 75 when another host's holder has not stopped, leaving the request on its lease", async () => {
      const thread = await temp.startThread(LINEAR);
      const store = await openStoreFromEnvironment(temp.home, storeEnv);
      try {
        const options = { ttlMs: 60_000, pid: 4242, host: "elsewhere", now: new Date() };
        expect((await store.refs.acquireLease(thread, options)).acquired).toBe(true);
      } finally {
        await store.close();
      }
      const pending = await temp.uwf(["cancel", thread, "--timeout", "1", "--json"]);
      expect(pending.exitCode).toBe(75);
      const { error } = errorResultSchema.parse(JSON.parse(pending.stderr));
      expect(error).toMatchObject({ code: "cancel-pending", data: { thread, holder: { host: "elsewhere" } } });
      expect(error.message).toContain("was asked to stop and cancel it but had not after 1 s; the request stays");
      expect((await leases())[0]?.cancelRequestedAt).toMatch(/^\d{4}-/);
      expect((await temp.showThread(thread)).status).toBe("active");
    }, 60_000);
  });
}
