import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { createSqliteRefStore, isProcessAlive, readProcessStart, refDatabasePath } from "@uwf/cas";
import { deadPid } from "@uwf/cas/test";
import { errorResultSchema, type Lease, stepResultSchema } from "@uwf/protocol";
import { createTempHome, fixtureAgentsConfig, LINEAR, type TempHome } from "../../helpers/temp-home.ts";
import { until } from "../../helpers/until.ts";

let temp: TempHome;
let pidFile: string;
beforeEach(() => {
  temp = createTempHome();
  pidFile = join(temp.work, "agent.pid");
  temp.writeConfig([...fixtureAgentsConfig(["sleepy", "plan-then-do"])].join("\n"));
});
afterEach(() => temp.cleanup());

const start = () => temp.startThread(LINEAR);

const record = (thread: string) => temp.showThread(thread);

/** The leases in the home's ref store, read beside the running uwf processes. */
async function leases(): Promise<Lease[]> {
  const refs = createSqliteRefStore(refDatabasePath(temp.home));
  try {
    return await refs.listLeases();
  } finally {
    await refs.close();
  }
}

/** Takes a thread's lease as a stepper with this pid, host and process start would. */
async function holdLease(thread: string, holder: { pid: number; host: string; processStart?: string | null }) {
  const refs = createSqliteRefStore(refDatabasePath(temp.home));
  try {
    const acquired = await refs.acquireLease(thread, { ttlMs: 60_000, now: new Date(), ...holder });
    if (!acquired.acquired) throw new Error("expected the lease");
    return acquired.lease;
  } finally {
    await refs.close();
  }
}

/** Polls for what a stepper in another process does; generous, since a loaded machine starts processes slowly. */
/** A stepper whose agent (sleepy.sh: a shell and its `sleep 300`) runs, with its lease naming the agent's group. */
async function stepperWithSleepingAgent(thread: string) {
  const stepper = temp.spawn(["step", thread, "--agent", "sleepy"], { env: { PID_FILE: pidFile } });
  await until(() => existsSync(pidFile) && existsSync(`${pidFile}.child`), "the agent writing its pids");
  const shell = Number(readFileSync(pidFile, "utf8"));
  const sleeper = Number(readFileSync(`${pidFile}.child`, "utf8"));
  await until(async () => (await leases())[0]?.agentGroup === shell, "the lease naming the agent's group");
  return { stepper, shell, sleeper };
}

describe("a stepper that dies", () => {
  it("killed with SIGKILL, lets the next step on this host run at once, after stopping its orphaned agent", async () => {
    const thread = await start();
    const { stepper, shell, sleeper } = await stepperWithSleepingAgent(thread);
    stepper.kill("SIGKILL");
    await stepper.exited;
    // The agent outlived its stepper, re-parented; the lease still names both.
    expect(isProcessAlive(sleeper)).toBe(true);
    expect((await leases())[0]).toMatchObject({ pid: stepper.pid, host: hostname(), agentGroup: shell });

    // "At once" is what the result shows: a lease still held would fail this step as busy, and a
    // stepper that waited for the orphan (sleeping 300 s) to end would hit the hang guard.
    const next = await temp.uwf(["step", thread, "--agent", "plan-then-do", "--json"]);
    expect(next.stderr).toBe("");
    expect(next.exitCode).toBe(0);
    expect(stepResultSchema.parse(next.json()).steps.map((step) => step.role)).toEqual(["planner"]);
    expect(isProcessAlive(shell)).toBe(false);
    expect(isProcessAlive(sleeper)).toBe(false);
    expect(await leases()).toEqual([]);
    expect((await record(thread)).stepCount).toBe(1);
  }, 60_000);

  it("killed with SIGKILL, leaves a lease row that `uwf cas gc` removes once its orphaned agent is gone", async () => {
    const thread = await start();
    const { stepper, shell } = await stepperWithSleepingAgent(thread);
    stepper.kill("SIGKILL");
    await stepper.exited;
    // While the orphaned agent runs, the row stays: the next stepper stops that agent through it.
    const kept = await temp.uwf(["cas", "gc", "--json"]);
    expect(kept.exitCode).toBe(0);
    expect((kept.json() as { forgottenLeases: string[] }).forgottenLeases).toEqual([]);
    expect(await leases()).toHaveLength(1);
    process.kill(-shell, "SIGKILL");
    await until(() => !isProcessAlive(shell), "the agent's group gone");
    // A live holder elsewhere keeps its row (it may still commit); the dead holder's is removed.
    const other = await start();
    await holdLease(other, { pid: 4242, host: "lost-machine.invalid" });
    const dryRun = await temp.uwf(["cas", "gc", "--dry-run", "--json"]);
    expect((dryRun.json() as { forgottenLeases: string[] }).forgottenLeases).toEqual([thread]);
    expect(await leases()).toHaveLength(2);
    const collected = await temp.uwf(["cas", "gc", "--json"]);
    expect(collected.exitCode).toBe(0);
    expect((collected.json() as { forgottenLeases: string[] }).forgottenLeases).toEqual([thread]);
    expect((await leases()).map((lease) => lease.threadId)).toEqual([other]);
    // Its thread is as it was, and steps on.
    expect((await record(thread)).status).toBe("active");
    expect((await temp.uwf(["step", thread, "--agent", "plan-then-do"])).exitCode).toBe(0);
    expect((await temp.uwf(["cas", "verify"])).exitCode).toBe(0);
  }, 60_000);

  it("hung up (SIGHUP, the terminal closed), exits 129 with a message, stops its agent and releases the lease", async () => {
    const thread = await start();
    const before = await record(thread);
    const { stepper, shell, sleeper } = await stepperWithSleepingAgent(thread);
    stepper.kill("SIGHUP");
    expect(await stepper.exited).toBe(129);
    const stderr = await new Response(stepper.stderr as ReadableStream).text();
    expect(stderr).toMatch(
      /^uwf: interrupted by SIGHUP; the thread is unchanged; what the agent had written is kept in run [0-9A-Z]{13}\n$/,
    );
    expect(await leases()).toEqual([]);
    expect(await record(thread)).toEqual(before);
    expect(isProcessAlive(shell)).toBe(false);
    expect(isProcessAlive(sleeper)).toBe(false);
  });

  it("answers hung up under --json with error code hung-up", async () => {
    const thread = await start();
    const stepper = temp.spawn(["step", thread, "--agent", "sleepy", "--json"], { env: { PID_FILE: pidFile } });
    await until(() => existsSync(`${pidFile}.child`), "the agent writing its pids");
    stepper.kill("SIGHUP");
    expect(await stepper.exited).toBe(129);
    const stderr = await new Response(stepper.stderr as ReadableStream).text();
    const { error } = errorResultSchema.parse(JSON.parse(stderr));
    expect(error).toMatchObject({ code: "hung-up", data: { signal: "SIGHUP" } });
  });
});

describe("a thread's step lease", () => {
  it("makes a second stepper busy with a message saying when the lease expires", async () => {
    const thread = await start();
    const { stepper } = await stepperWithSleepingAgent(thread);
    try {
      const busy = await temp.uwf(["step", thread, "--agent", "plan-then-do"]);
      expect(busy.exitCode).toBe(75);
      expect(busy.stderr).toMatch(
        new RegExp(
          `^uwf: thread ${thread} is busy: pid ${stepper.pid} on ${hostname()} has been stepping it since \\S+; ` +
            "its lease expires at \\d{4}-\\d\\d-\\d\\dT\\S+Z \\(in (\\d|1[0-5]) s\\) unless that stepper renews it while it runs\\n$",
        ),
      );
      const asJson = await temp.uwf(["step", thread, "--agent", "plan-then-do", "--json"]);
      const { error } = errorResultSchema.parse(JSON.parse(asJson.stderr));
      expect(error.code).toBe("thread-busy");
      expect(error.data).toMatchObject({ thread, holder: { pid: stepper.pid, expiresAt: expect.any(String) } });
    } finally {
      stepper.kill("SIGTERM");
      await stepper.exited;
    }
  });

  it("held by a dead process of another host keeps its lifetime: step is busy and cancel waits in vain until it expires", async () => {
    const thread = await start();
    const lease = await holdLease(thread, { pid: deadPid(), host: "elsewhere.invalid" });
    const busy = await temp.uwf(["step", thread, "--agent", "plan-then-do"]);
    expect(busy.exitCode).toBe(75);
    expect(busy.stderr).toContain(`on elsewhere.invalid has been stepping it since ${lease.acquiredAt}`);
    expect(busy.stderr).toContain(`its lease expires at ${lease.expiresAt}`);
    // The dead holder never renews, so never sees the cancel request; it stays on the lease.
    const pending = await temp.uwf(["cancel", thread, "--timeout", "1"]);
    expect(pending.exitCode).toBe(75);
    expect(pending.stderr).toContain(`on elsewhere.invalid, which is stepping it, was asked to stop and cancel it`);
    expect(pending.stderr).toContain(`next renews its lease (by ${lease.expiresAt})`);
    expect(await leases()).toEqual([{ ...lease, cancelRequestedAt: expect.any(String) }]);
    expect((await record(thread)).status).toBe("active");
  });

  it("held by a dead process of this host is taken over at once, by cancel too", async () => {
    const thread = await start();
    await holdLease(thread, { pid: deadPid(), host: hostname() });
    const cancelled = await temp.uwf(["cancel", thread]);
    expect(cancelled.stderr).toBe("");
    expect(cancelled.exitCode).toBe(0);
    expect((await record(thread)).status).toBe("cancelled");
    expect(await leases()).toEqual([]);
  });

  it.if(process.platform === "linux")(
    "held by a pid of this host that now names another process is taken over at once",
    async () => {
      const thread = await start();
      // This test's own process, alive, but not the one that took the lease: it started at another time.
      const processStart = readProcessStart(process.pid);
      await holdLease(thread, { pid: process.pid, host: hostname(), processStart: `${processStart}0` });
      const stepped = await temp.uwf(["step", thread, "--agent", "plan-then-do"]);
      expect(stepped.exitCode).toBe(0);
      // Held by this very process, it is busy.
      await holdLease(thread, { pid: process.pid, host: hostname(), processStart });
      expect((await temp.uwf(["step", thread, "--agent", "plan-then-do"])).exitCode).toBe(75);
      expect((await record(thread)).stepCount).toBe(1);
    },
  );
});

describe("a worker lost with its machine", () => {
  it("holds its thread for the configured lease lifetime, renewed by heartbeat, and not a moment longer", async () => {
    temp.writeConfig([...fixtureAgentsConfig(["sleepy", "plan-then-do"]), "leases:", "  lifetime: 5"].join("\n"));
    const thread = await start();
    const { stepper, shell } = await stepperWithSleepingAgent(thread);
    try {
      // Its heartbeat renews the 5 s lease every 1.25 s while the agent runs.
      const first = (await leases())[0] as Lease;
      await until(async () => (await leases())[0]?.expiresAt !== first.expiresAt, "the lease renewed");
      stepper.kill("SIGKILL");
      await stepper.exited;
      const killedAt = Date.now();
      // The machine it ran on is gone with it: its lease names another host, whose pids this host cannot check.
      const database = new Database(refDatabasePath(temp.home));
      database.run("UPDATE leases SET host = 'lost-machine.invalid' WHERE thread_id = ?", [thread]);
      database.close();
      const held = (await leases())[0] as Lease;
      const expiresAt = Date.parse(held.expiresAt);
      expect(expiresAt - killedAt).toBeLessThanOrEqual(5_000);

      const busy = await temp.uwf(["step", thread, "--agent", "plan-then-do"]);
      const busyEndedAt = Date.now();
      expect(busy.exitCode).toBe(75);
      expect(busy.stderr).toContain(`on lost-machine.invalid has been stepping it since`);
      // Not before: the step above was refused while the lease was still alive.
      expect(busyEndedAt).toBeLessThan(expiresAt);

      // The lease's end is the event to wait for: past it, another stepper takes the thread over.
      await Bun.sleep(Math.max(0, expiresAt - Date.now() + 20));
      const next = await temp.uwf(["step", thread, "--agent", "plan-then-do", "--json"]);
      expect(next.stderr).toBe("");
      expect(next.exitCode).toBe(0);
      expect(Date.now() - killedAt).toBeLessThan(5_000 + 10_000);
      expect(stepResultSchema.parse(next.json()).steps.map((step) => step.role)).toEqual(["planner"]);
      expect(await leases()).toEqual([]);
      const verified = await temp.uwf(["cas", "verify"]);
      expect(verified.exitCode).toBe(0);
    } finally {
      // Another host's agent is beyond this host's reach: uwf leaves it alone, so the test stops it.
      try {
        process.kill(-shell, "SIGKILL");
      } catch {}
    }
  }, 60_000);
});
