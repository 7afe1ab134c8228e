import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type CliEvent,
  listResultSchema,
  scheduleListResultSchema,
  scheduleShowResultSchema,
  tickResultSchema,
  workflowAddResultSchema,
} from "@uwf/protocol";
import { parseEvents } from "../../helpers/cli-events.ts";
import { errorOf } from "../../helpers/error-of.ts";
import { BACKENDS, type Backend, useBackendEnv } from "../../helpers/store-backends.ts";
import { createTempHome, fixtureAgentsConfig, LINEAR, type TempHome } from "../../helpers/temp-home.ts";
import { until } from "../../helpers/until.ts";

/** Every test that fires from several processes runs on both backends, each test with a store of its own. */

/** A one-role workflow: the planner answers, the thread ends. */
const ONE_STEP = `name: one-step
roles:
  planner:
    goal: Plan.
    frontmatter: { type: object, properties: { plan: { type: string } }, required: [plan] }
graph:
  $START: [{ role: planner, prompt: "Plan." }]
  planner: [{ role: $END }]
`;

const backendEnv = useBackendEnv();

let temp: TempHome;
let pidFile: string;
function setUp(backend: Backend) {
  temp = createTempHome({ env: backendEnv(backend) });
  pidFile = join(temp.work, "agent.pid");
  temp.writeConfig(
    [
      ...fixtureAgentsConfig(["plan-then-do", "slow-valid"]),
      "defaultAgent: plan-then-do",
      "worker: { retries: 0, backoffMs: 20, pollMs: 50 }",
    ].join("\n"),
  );
}

/** A six-field cron (seconds first, UTC) due at this one second of the year only. */
function cronAt(time: Date): string {
  const fields = [
    time.getUTCSeconds(),
    time.getUTCMinutes(),
    time.getUTCHours(),
    time.getUTCDate(),
    time.getUTCMonth() + 1,
  ];
  return `${fields.join(" ")} *`;
}

async function uwfOk(args: string[]) {
  const run = await temp.uwf(args);
  if (run.exitCode !== 0) throw new Error(`uwf ${args.join(" ")} exited ${run.exitCode}: ${run.stderr}`);
  return run;
}

async function scheduledThreads(schedule: string) {
  return listResultSchema.parse((await uwfOk(["list", "--schedule", schedule, "--limit", "0", "--json"])).json())
    .threads;
}

/** Stops spawned workers (SIGTERM drains them) and returns each one's events. */
async function stopWorkers(workers: ReturnType<TempHome["spawn"]>[]): Promise<CliEvent[][]> {
  for (const worker of workers) worker.kill("SIGTERM");
  return Promise.all(
    workers.map(async (worker) => {
      const [stdout, stderr, exitCode] = await Promise.all([
        new Response(worker.stdout as ReadableStream).text(),
        new Response(worker.stderr as ReadableStream).text(),
        worker.exited,
      ]);
      expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: "" });
      return parseEvents(stdout);
    }),
  );
}

function firesOf(events: readonly CliEvent[]) {
  return events.flatMap((event) => (event.type === "schedule-fired" ? [event] : []));
}

for (const backend of BACKENDS) {
  describe(`on ${backend}`, () => {
    beforeEach(() => setUp(backend));
    afterEach(() => temp.cleanup());

    it("three workers fire a due time exactly once, record scheduledBy, and one of them steps the thread", async () => {
      // Due once, a few seconds from now (a year from then next), while the three workers poll.
      const at = new Date(Math.ceil((Date.now() + 4000) / 1000) * 1000);
      await uwfOk(["schedule", "add", "once", LINEAR, "--cron", cronAt(at), "-p", "scheduled task"]);
      const other = await temp.startThread(LINEAR, "not scheduled");
      const workers = [0, 1, 2].map(() => temp.spawn(["worker", "--jsonl"]));
      await until(
        async () => (await scheduledThreads("once")).some((thread) => thread.status === "ended"),
        "the scheduled thread to end",
      );
      // Past the fire time by several polls of every worker: none fires it again.
      await Bun.sleep(500);
      const events = await stopWorkers(workers);
      const started = events.flatMap(firesOf).filter((fire) => fire.thread !== null);
      expect(started).toEqual([
        expect.objectContaining({ schedule: "once", fireTime: at.toISOString(), queued: true }),
      ]);
      const threads = await scheduledThreads("once");
      expect(threads.map((thread) => thread.id)).toEqual([started[0]?.thread as string]);
      expect(threads.map((thread) => thread.id)).not.toContain(other);
      const shown = await temp.showThread(started[0]?.thread as string);
      expect(shown).toMatchObject({ status: "ended", scheduledBy: { schedule: "once", fireTime: at.toISOString() } });
      expect((await uwfOk(["show", shown.id])).stdout).toContain(`schedule once, fired for ${at.toISOString()}`);
      const schedule = scheduleShowResultSchema.parse((await uwfOk(["schedule", "show", "once", "--json"])).json());
      expect(schedule).toMatchObject({ lastThread: shown.id, lastFireAt: at.toISOString(), threadCount: 1 });
      expect(Date.parse(schedule.nextFireAt ?? "")).toBeGreaterThan(Date.now() + 300 * 86_400_000);
    }, 60_000);

    it("--overlap skip starts nothing while the schedule's last thread still runs", async () => {
      writeFileSync(join(temp.work, "one-step.yaml"), ONE_STEP);
      temp.writeConfig(
        [...fixtureAgentsConfig(["slow-valid"]), "defaultAgent: slow-valid", "worker: { pollMs: 50 }"].join("\n"),
      );
      await uwfOk(["schedule", "add", "every", "one-step.yaml", "--cron", "* * * * * *", "--overlap", "skip"]);
      const workers = [0, 1, 2].map(() =>
        temp.spawn(["worker", "--jsonl", "--concurrency", "2"], { env: { PID_FILE: pidFile } }),
      );
      await until(() => existsSync(pidFile), "the first thread's agent to start");
      // Three more seconds come due while the agent waits: each is skipped.
      await Bun.sleep(3000);
      expect(await scheduledThreads("every")).toHaveLength(1);
      await uwfOk(["schedule", "pause", "every"]);
      writeFileSync(`${pidFile}.release`, "");
      await until(async () => (await scheduledThreads("every"))[0]?.status === "ended", "the thread to end");
      const fires = (await stopWorkers(workers)).flatMap(firesOf);
      expect(fires.filter((fire) => fire.thread !== null)).toHaveLength(1);
      const skipped = fires.filter((fire) => fire.skipped === "overlap");
      expect(skipped.length).toBeGreaterThanOrEqual(2);
      // Each fire time was decided by one worker only.
      const times = fires.map((fire) => fire.fireTime);
      expect(new Set(times).size).toBe(times.length);
    }, 60_000);
  });
}

describe("on the embedded store", () => {
  beforeEach(() => setUp("the embedded store"));
  afterEach(() => temp.cleanup());

  it("uwf tick from a shell loop fires the schedule once a second and runs each thread to its end", async () => {
    await uwfOk(["schedule", "add", "every", LINEAR, "--cron", "* * * * * *", "-p", "ticked"]);
    const loop = await temp.shell("sleep 1.2; for i in 1 2 3; do $UWF tick || exit 1; sleep 1; done");
    expect(loop).toMatchObject({ exitCode: 0, stderr: "" });
    expect(loop.stdout.match(/^every \S+: started \S+$/gm)).toHaveLength(3);
    expect(loop.stdout.match(/ ended after 2 steps$/gm)).toHaveLength(3);
    const threads = await scheduledThreads("every");
    expect(threads.map((thread) => thread.status)).toEqual(["ended", "ended", "ended"]);
    const fireTimes = threads.map((thread) => thread.scheduledBy?.fireTime);
    expect(new Set(fireTimes).size).toBe(3);
  }, 60_000);

  it("pauses, resumes, triggers, lists and removes a schedule; refuses a bad one naming the flag", async () => {
    const bad = await temp.uwf(["schedule", "add", "x", LINEAR, "--cron", "61 * * * *", "--json"]);
    expect(bad.exitCode).toBe(2);
    expect(errorOf(bad.stderr)).toMatchObject({
      code: "invalid-schedule",
      data: { schedule: "x", field: "--cron" },
    });
    const badText = await temp.uwf(["schedule", "add", "x", LINEAR, "--cron", "0 9 * * *", "--tz", "Mars/Base"]);
    expect(badText).toMatchObject({ exitCode: 2, stdout: "" });
    expect(badText.stderr).toContain("--tz");
    expect(
      (await temp.uwf(["schedule", "add", "x", LINEAR, "--cron", "* * * * *", "--overlap", "never"])).exitCode,
    ).toBe(2);
    expect((await temp.uwf(["schedule", "add", "x", "absent", "--cron", "* * * * *"])).exitCode).toBe(1);
    expect(scheduleListResultSchema.parse((await uwfOk(["schedule", "list", "--json"])).json()).schedules).toEqual([]);

    await uwfOk(["schedule", "add", "every", LINEAR, "--cron", "* * * * * *", "-p", "by hand", "--input", "k=v"]);
    const taken = await temp.uwf(["schedule", "add", "every", LINEAR, "--cron", "* * * * *", "--json"]);
    expect(taken.exitCode).toBe(1);
    expect(errorOf(taken.stderr).code).toBe("schedule-exists");
    const paused = scheduleShowResultSchema.parse((await uwfOk(["schedule", "pause", "every", "--json"])).json());
    expect(paused).toMatchObject({ paused: true, nextFireAt: null, inputs: { k: "v" } });
    await Bun.sleep(1100);
    expect((await uwfOk(["tick", "--agent", "plan-then-do", "--timeout", "30"])).stdout.trim()).toBe("nothing due");

    const triggered = tickResultSchema.parse(
      (await uwfOk(["schedule", "trigger", "every", "--agent", "plan-then-do", "--json"])).json(),
    );
    expect(triggered.fired).toEqual([expect.objectContaining({ schedule: "every", thread: expect.any(String) })]);
    expect(triggered.ran).toEqual([{ thread: triggered.fired[0]?.thread as string, status: "ended", steps: 2 }]);
    expect(await scheduledThreads("every")).toHaveLength(1);

    const resumed = scheduleShowResultSchema.parse((await uwfOk(["schedule", "resume", "every", "--json"])).json());
    expect(resumed.paused).toBe(false);
    expect(Date.parse(resumed.nextFireAt ?? "")).toBeGreaterThan(Date.now() - 1000);
    const listed = (await uwfOk(["schedule", "list"])).stdout;
    expect(listed).toMatch(/^NAME +WORKFLOW +CRON +NEXT +LAST THREAD$/m);
    expect(listed).toContain(triggered.fired[0]?.thread as string);

    expect((await uwfOk(["schedule", "rm", "every"])).stdout.trim()).toBe("removed schedule every");
    const gone = await temp.uwf(["schedule", "show", "every", "--json"]);
    expect(gone.exitCode).toBe(1);
    expect(errorOf(gone.stderr).code).toBe("schedule-not-found");
    // The thread it started stays, and still says which schedule started it.
    expect(await scheduledThreads("every")).toHaveLength(1);
  }, 60_000);

  it("workflow add registers a workflow's schedule: under its name, and removes it with the schedule: gone", async () => {
    const file = join(temp.work, "one-step.yaml");
    writeFileSync(file, `${ONE_STEP}schedule:\n  cron: "0 9 * * 1-5"\n  tz: Europe/Berlin\n  prompt: Plan the week.\n`);
    const added = workflowAddResultSchema.parse((await uwfOk(["workflow", "add", file, "--json"])).json());
    expect(added.schedule).toBe("registered");
    const [schedule] = scheduleListResultSchema.parse((await uwfOk(["schedule", "list", "--json"])).json()).schedules;
    expect(schedule).toMatchObject({
      name: "one-step",
      workflow: "one-step",
      cron: "0 9 * * 1-5",
      tz: "Europe/Berlin",
      prompt: "Plan the week.",
      source: "workflow",
    });
    // 9:00 in Berlin is 7:00 or 8:00 UTC, on a weekday.
    const next = new Date(schedule?.nextFireAt ?? "");
    expect([7, 8]).toContain(next.getUTCHours());
    expect([1, 2, 3, 4, 5]).toContain(next.getUTCDay());
    writeFileSync(file, `${ONE_STEP}schedule:\n  cron: "0 9 * * 61"\n`);
    const invalid = await temp.uwf(["workflow", "add", file]);
    expect(invalid.exitCode).toBe(1);
    expect(invalid.stderr).toContain(`${file}:10:9: schedule.cron:`);
    writeFileSync(file, ONE_STEP);
    expect(workflowAddResultSchema.parse((await uwfOk(["workflow", "add", file, "--json"])).json()).schedule).toBe(
      "removed",
    );
    expect(scheduleListResultSchema.parse((await uwfOk(["schedule", "list", "--json"])).json()).schedules).toEqual([]);
  }, 60_000);
});
