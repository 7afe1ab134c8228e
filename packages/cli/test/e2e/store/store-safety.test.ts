import { describe, expect, it } from "bun:test";
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { openFileStore } from "@uwf/cas";
import {
  casPutResultSchema,
  casRecoverResultSchema,
  gcReportSchema,
  listResultSchema,
  shownThreadSchema,
  startResultSchema,
  stepResultSchema,
  verifyReportSchema,
} from "@uwf/protocol";
import { FIXTURES, LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

const LONG_REVIEW = join(FIXTURES, "workflows/long-review.yaml");
const THREADS = 8;
/** `uwf step -n STEPS_PER_RUN`, RUNS times per thread. */
const RUNS = 4;
const STEPS_PER_RUN = 2;
const HOUR = 60 * 60 * 1000;

const temp = useTempHome();

/** Every file under objects/, as `<shard>/<name>`. */
function objectFiles(): string[] {
  const root = join(temp.home, "objects");
  return readdirSync(root).flatMap((shard) => readdirSync(join(root, shard)).map((name) => `${shard}/${name}`));
}

/** Makes every object look written two hours ago: older than gc's default grace. */
function ageObjects(): void {
  const old = new Date(Date.now() - 2 * HOUR);
  for (const file of objectFiles()) utimesSync(join(temp.home, "objects", file), old, old);
}

function objectPath(address: string, name = `${address.slice(2)}.json`): string {
  return join(temp.home, "objects", address.slice(0, 2), name);
}

async function startLinear(prompt: string, steps: number): Promise<{ thread: string; head: string }> {
  const started = startResultSchema.parse((await temp.uwf(["start", LINEAR, "-p", prompt, "--json"])).json());
  let head = started.head;
  if (steps > 0) {
    const stepped = await temp.uwf(["step", started.thread, "-n", String(steps), "--agent", SCRIPTED, "--json"]);
    expect(stepped.exitCode).toBe(0);
    head = stepResultSchema.parse(stepped.json()).head;
  }
  return { thread: started.thread, head };
}

describe("uwf cas gc racing steps", () => {
  it(`with --grace 0 in a loop against ${THREADS} stepping threads, leaves every head and chain intact`, async () => {
    temp.writeConfig(
      ["agents:", "  forever:", "    command: sh", `    args: ["${join(FIXTURES, "agents/review-forever.sh")}"]`].join(
        "\n",
      ),
    );
    const threads: string[] = [];
    for (let index = 0; index < THREADS; index++) {
      const started = await temp.uwf(["start", LONG_REVIEW, "-p", `Story ${index}`, "--json"]);
      threads.push(startResultSchema.parse(started.json()).thread);
    }
    // A failed run's leftovers, old enough for any grace: gc has real work to do while the steps run.
    const orphan = casPutResultSchema.parse(
      (await temp.uwf(["cas", "put", "--json"], { stdin: '{"type":"text/1","text":"orphan"}' })).json(),
    ).address;
    utimesSync(objectPath(orphan), new Date(Date.now() - 2 * HOUR), new Date(Date.now() - 2 * HOUR));

    let stepping = true;
    const gcRuns: number[] = [];
    const collector = (async () => {
      while (stepping) {
        const gc = await temp.uwf(["cas", "gc", "--grace", "0", "--json"]);
        expect({ exitCode: gc.exitCode, stderr: gc.stderr }).toEqual({ exitCode: 0, stderr: "" });
        gcRuns.push(gcReportSchema.parse(gc.json()).deleted.length);
      }
    })();
    const stepRuns = await Promise.all(
      threads.map(async (thread) => {
        const codes: number[] = [];
        for (let run = 0; run < RUNS; run++) {
          const stepped = await temp.uwf(["step", thread, "-n", String(STEPS_PER_RUN), "--agent", "forever"]);
          codes.push(stepped.exitCode);
          if (stepped.exitCode !== 0) codes.push(Number.NaN, stepped.stderr as unknown as number);
        }
        return codes;
      }),
    );
    stepping = false;
    await collector;

    expect(stepRuns).toEqual(threads.map(() => Array(RUNS).fill(0)));
    expect(gcRuns.length).toBeGreaterThan(1);
    expect(gcRuns.reduce((sum, deleted) => sum + deleted, 0)).toBe(1); // the orphan, and nothing else
    for (const thread of threads) {
      const record = shownThreadSchema.parse((await temp.uwf(["show", thread, "--json"])).json());
      expect(record.stepCount).toBe(RUNS * STEPS_PER_RUN);
      const walked = await temp.uwf(["cas", "walk", record.head, "--json"]);
      expect(walked.exitCode).toBe(0);
      const log = await temp.uwf(["log", thread, "--json"]);
      expect(log.exitCode).toBe(0);
    }
    const verify = await temp.uwf(["cas", "verify", "--json"]);
    expect(verify.exitCode).toBe(0);
    expect(verifyReportSchema.parse(verify.json()).problems).toEqual([]);
  }, 300_000);
});

describe("a lost ref store", () => {
  it("emptied: verify reports its threads, gc refuses to delete them, and recover rebuilds them once", async () => {
    const ended = await startLinear("First task", 2);
    const halfway = await startLinear("Second task", 1);
    const unstepped = await startLinear("Third task", 0);
    const objectsBefore = objectFiles().sort();
    ageObjects();
    writeFileSync(join(temp.home, "refs.db"), ""); // `: > refs.db`

    const list = await temp.uwf(["list", "--json"]);
    expect(listResultSchema.parse(list.json()).total).toBe(0);

    const verify = await temp.uwf(["cas", "verify", "--json"]);
    expect(verify.exitCode).toBe(1);
    const report = verifyReportSchema.parse(verify.json());
    // The thread that took no step is reported at its start node; the other two at their heads.
    expect(report.problems.map((problem) => [problem.kind, problem.address])).toEqual([
      ["unrecorded-thread", unstepped.head],
      ...[ended.head, halfway.head].sort().map((head) => ["unrecorded-head", head]),
    ]);
    expect(report.unreachable.total).toBe(objectsBefore.length);
    expect(report.unreachable.byKind).toMatchObject({ "thread-start/1": 3, "thread-step/1": 3, "workflow/1": 1 });
    const human = await temp.uwf(["cas", "verify"]);
    expect(human.stdout).toContain("`uwf cas recover` rebuilds its thread");
    expect(human.stdout).toContain(
      `unrecorded-head ${ended.head}: head of thread ${ended.thread} that no thread record holds (2 step(s), 2 held by no record)`,
    );
    expect(human.stdout).toContain(`${objectsBefore.length} unreachable object(s)`);
    expect(human.stdout).toContain("3 thread-start/1");

    for (const args of [
      ["cas", "gc"],
      ["cas", "gc", "--dry-run"],
      ["cas", "gc", "--grace", "0", "--json"],
    ]) {
      const gc = await temp.uwf(args);
      expect(gc.exitCode).toBe(1);
      expect(gc.stderr).toContain("2 thread head(s) that no thread record holds would be deleted");
      expect(gc.stderr).toContain("`uwf cas recover`");
      expect(gc.stderr).not.toContain("internal error");
    }
    expect(objectFiles().sort()).toEqual(objectsBefore);

    const recover = await temp.uwf(["cas", "recover", "--json"]);
    expect({ exitCode: recover.exitCode, stderr: recover.stderr }).toEqual({ exitCode: 0, stderr: "" });
    const recovered = casRecoverResultSchema.parse(recover.json());
    expect(recovered.setAside).toBeNull();
    expect(recovered.skipped).toEqual([]);
    expect(recovered.registered.map((entry) => entry.name)).toEqual(["linear"]);
    const byHead = new Map(recovered.recovered.map((thread) => [thread.head, thread]));
    // Their agent runs name the threads that made the steps: they come back under their own ids.
    expect(byHead.get(ended.head)).toMatchObject({
      thread: ended.thread,
      workflow: "linear",
      steps: 2,
      status: "ended",
    });
    expect(byHead.get(halfway.head)?.thread).toBe(halfway.thread);
    expect(byHead.get(halfway.head)).toMatchObject({ steps: 1, status: "active" });
    expect(byHead.get(unstepped.head)).toMatchObject({ steps: 0, status: "active" });

    const listed = listResultSchema.parse((await temp.uwf(["list", "--json"])).json());
    expect(listed.threads.map((thread) => thread.recoveredFrom).sort()).toEqual(
      [ended.head, halfway.head, unstepped.head].sort(),
    );
    expect((await temp.uwf(["list"])).stdout).toContain("ended (recovered)");
    const halfwayThread = byHead.get(halfway.head)?.thread as string;
    expect(listed.threads.find((thread) => thread.id === halfwayThread)?.next).toBe("doer");
    const stepped = await temp.uwf(["step", halfwayThread, "--agent", SCRIPTED, "--json"]);
    expect(stepped.exitCode).toBe(0);
    expect(stepResultSchema.parse(stepped.json()).status).toBe("ended");

    const again = casRecoverResultSchema.parse((await temp.uwf(["cas", "recover", "--json"])).json());
    expect(again).toMatchObject({ recovered: [], registered: [], skipped: [] });
    expect((await temp.uwf(["cas", "verify"])).exitCode).toBe(0);
    const gc = gcReportSchema.parse((await temp.uwf(["cas", "gc", "--json"])).json());
    expect(gc.deleted).toEqual([]);
  }, 120_000);

  it("recover leaves a head a step in flight may still commit (exit 75) and reports a broken chain (exit 1)", async () => {
    const { thread, head } = await startLinear("A task", 1);
    const store = await openFileStore(temp.home);
    // A step in flight on the thread: its lease taken, its step node written, the head not moved yet.
    const lease = await store.refs.acquireLease(thread, {
      ttlMs: 60_000,
      pid: process.pid,
      host: hostname(),
      now: new Date(),
    });
    const headNode = (await store.objects.get(head)) as Record<string, unknown>;
    const inFlight = await store.objects.put({ ...headNode, prev: head, role: "doer", edgePrompt: "in flight" });
    await store.close();

    const busy = await temp.uwf(["cas", "recover", "--json"]);
    expect(busy.exitCode).toBe(75);
    expect(casRecoverResultSchema.parse(busy.json())).toMatchObject({
      recovered: [],
      extended: [],
      skipped: [{ head: inFlight, reason: "in-flight" }],
    });

    // The step died instead: its node is its thread's newest step, past its recorded head, where recover moves it.
    const reopened = await openFileStore(temp.home);
    if (lease.acquired) await reopened.refs.releaseLease(lease.lease);
    // And a lost thread whose first step is gone cannot be rebuilt (a run that names no thread: an older uwf's).
    const { thread: _named, ...anonymousRun } = (await reopened.objects.get(headNode.run as string)) as Record<
      string,
      unknown
    >;
    const run = await reopened.objects.put(anonymousRun);
    const broken = await reopened.objects.put({ ...headNode, prev: "0000000000000", edgePrompt: "broken", run });
    await reopened.close();
    const recover = await temp.uwf(["cas", "recover", "--json"]);
    expect(recover.exitCode).toBe(1);
    const result = casRecoverResultSchema.parse(recover.json());
    expect(result.recovered).toEqual([]);
    expect(result.extended).toEqual([{ thread, from: head, head: inFlight, steps: 2 }]);
    expect(result.skipped).toMatchObject([{ head: broken, reason: "broken" }]);
    expect(result.skipped[0]?.message).toContain("0000000000000");
    const shown = shownThreadSchema.parse((await temp.uwf(["show", thread, "--json"])).json());
    expect(shown).toMatchObject({ head: inFlight, stepCount: 2 });
  }, 60_000);

  it("half-truncated: every command fails cleanly naming recover, which sets the file aside and rebuilds", async () => {
    const { head } = await startLinear("A task", 2);
    const refsPath = join(temp.home, "refs.db");
    const padding = await temp.uwf(["start", LINEAR, "-p", "x".repeat(100_000), "--json"]);
    expect(padding.exitCode).toBe(0);
    truncateSync(refsPath, Math.floor(statSync(refsPath).size / 2));
    const damaged = readFileSync(refsPath);

    for (const args of [["list"], ["cas", "verify"], ["cas", "gc"], ["show", head]]) {
      const result = await temp.uwf(args);
      expect({ args, exitCode: result.exitCode }).toEqual({ args, exitCode: 1 });
      expect(result.stderr).toStartWith(`uwf: the ref store ${refsPath} is damaged (`);
      expect(result.stderr).toContain("`uwf cas recover` moves it aside, keeping it");
      expect(result.stderr).not.toContain("internal error");
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
    const json = await temp.uwf(["list", "--json"]);
    expect(JSON.parse(json.stderr).error.code).toBe("ref-store-damaged");
    expect(readFileSync(refsPath).equals(damaged)).toBe(true);

    const recover = await temp.uwf(["cas", "recover", "--json"]);
    expect(recover.exitCode).toBe(0);
    const result = casRecoverResultSchema.parse(recover.json());
    expect(result.setAside).toMatch(/refs\.db\.damaged-\d{8}T\d{6}Z$/);
    expect(readFileSync(result.setAside as string).equals(damaged)).toBe(true);
    expect(result.recovered.map((thread) => thread.head)).toContain(head);
    expect(result.recovered).toHaveLength(2);
    expect((await temp.uwf(["cas", "verify"])).exitCode).toBe(0);
  }, 120_000);
});

describe("repair", () => {
  it("cas put rewrites a corrupt object, and so does a step that puts a corrupt shared node again", async () => {
    const put = await temp.uwf(["cas", "put", "--json"], { stdin: '{"b":1,"a":"x"}' });
    const { address } = casPutResultSchema.parse(put.json());
    writeFileSync(objectPath(address), '{"a":"y","b":1}');
    const corrupt = await temp.uwf(["cas", "get", address]);
    expect(corrupt.exitCode).toBe(1);
    expect(corrupt.stderr).toContain(`node ${address} is corrupt`);
    expect((await temp.uwf(["cas", "put"], { stdin: '{"a":"x","b":1}' })).stdout.trim()).toBe(address);
    expect(readFileSync(objectPath(address), "utf8")).toBe('{"a":"x","b":1}');

    // Two threads of one scenario share the planner's output node; the first one's copy goes bad.
    await startLinear("First", 1);
    const second = await startLinear("Second", 0);
    const output = (
      await temp.uwf(["cas", "put"], { stdin: '{"type":"output/1","fields":{"plan":"write hello.txt"}}' })
    ).stdout.trim();
    const bytes = readFileSync(objectPath(output));
    writeFileSync(objectPath(output), bytes.subarray(0, bytes.length - 3));
    expect((await temp.uwf(["cas", "verify"])).exitCode).toBe(1);
    const stepped = await temp.uwf(["step", second.thread, "--agent", SCRIPTED]);
    expect(stepped.exitCode).toBe(0);
    expect(readFileSync(objectPath(output)).equals(bytes)).toBe(true);
    expect((await temp.uwf(["cas", "verify"])).exitCode).toBe(0);
  }, 60_000);

  it("gc resolves the files a killed gc set aside once older than its grace, and verify lists them", async () => {
    const { thread, head } = await startLinear("A task", 2);
    const record = shownThreadSchema.parse((await temp.uwf(["show", thread, "--json"])).json());
    // The head set aside alone (a gc killed while deciding on it), the start's set-aside copy beside it.
    renameSync(objectPath(head), objectPath(head, `.gc-${head.slice(2)}`));
    copyFileSync(objectPath(record.start), objectPath(record.start, `.gc-${record.start.slice(2)}`));
    ageObjects();

    const verify = await temp.uwf(["cas", "verify", "--json"]);
    expect(verify.exitCode).toBe(0);
    const leftovers = verifyReportSchema.parse(verify.json()).leftovers;
    expect(leftovers.map((leftover) => [leftover.kind, leftover.name]).sort()).toEqual(
      [
        ["set-aside", `${head.slice(0, 2)}/.gc-${head.slice(2)}`],
        ["set-aside", `${record.start.slice(0, 2)}/.gc-${record.start.slice(2)}`],
      ].sort(),
    );
    expect((await temp.uwf(["cas", "verify"])).stdout).toContain("leftover object set aside by an interrupted gc");
    expect((await temp.uwf(["log", thread])).exitCode).toBe(0);

    const young = gcReportSchema.parse((await temp.uwf(["cas", "gc", "--grace", "86400", "--json"])).json());
    expect(young.deletedTemporaryFiles).toEqual([]);
    const gc = gcReportSchema.parse((await temp.uwf(["cas", "gc", "--json"])).json());
    expect(gc.deleted).toEqual([]);
    expect(gc.deletedTemporaryFiles).toHaveLength(2);
    expect(existsSync(objectPath(head))).toBe(true);
    expect(objectFiles().filter((file) => file.includes("/.gc-"))).toEqual([]);
    const after = verifyReportSchema.parse((await temp.uwf(["cas", "verify", "--json"])).json());
    expect(after).toMatchObject({ ok: true, leftovers: [] });
  }, 60_000);
});
