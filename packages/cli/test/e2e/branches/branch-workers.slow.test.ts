import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Store } from "@uwf/cas";
import { waitFor } from "@uwf/cas/test";
import {
  type CliEvent,
  joinedBranchesNodeSchema,
  logResultSchema,
  startResultSchema,
  type ThreadStepNode,
  threadStepNodeSchema,
  verifyReportSchema,
} from "@uwf/protocol";
import { stringify } from "yaml";
import { parseEvents } from "../../helpers/cli-events.ts";
import { readHomeStore } from "../../helpers/read-home-store.ts";
import { BACKENDS, useBackendEnv } from "../../helpers/store-backends.ts";
import { createTempHome, FIXTURES, type TempHome } from "../../helpers/temp-home.ts";

/**
 * Issue #31: branches run by workers that die. A queued 50-branch foreach is run by four `uwf worker`
 * processes, one of them killed with SIGKILL at random moments (and restarted at once) until the parent
 * ends: every branch must end with exactly one step of its own and be joined exactly once. And a
 * process killed between a branch's end and its parent's settle leaves the join to an idle worker.
 */

const FILES_MAP = join(FIXTURES, "workflows/fan-out-files-map.yaml");
const REVIEW = join(FIXTURES, "workflows/fan-out-review.yaml");
const BRANCHES = 50;
const WORKERS = 4;

const backendEnv = useBackendEnv();

let temp: TempHome;
let storeEnv: Record<string, string>;

function readStore<Result>(read: (store: Store) => Promise<Result>): Promise<Result> {
  return readHomeStore(temp.home, storeEnv, read);
}

/** A scenario for fan-out-files-map: a splitter listing `count` files, one fixer step per branch, the reducer. */
function fiftyFilesAgent(): string {
  const file = join(temp.work, "fifty.scenario.yaml");
  const files = Array.from({ length: BRANCHES }, (_, index) => ({ path: `src/file-${index}.ts` }));
  writeFileSync(
    file,
    stringify({
      steps: [
        { role: "splitter", output: { $status: "listed", files }, body: "Fifty files." },
        { role: "reducer", output: { $status: "done", summary: "all fixed" }, body: "Done." },
        { role: "fixer", branch: "*", output: { $status: "fixed", summary: "fixed" }, body: "Fixed." },
      ],
    }),
  );
  return `scripted:${file}`;
}

interface WorkerRun {
  process: ReturnType<TempHome["spawn"]>;
  output: string;
  stdout: Promise<string>;
  stderr: Promise<string>;
}

function startWorker(args: string[] = ["worker", "--concurrency", "2", "--jsonl"]): WorkerRun {
  const process = temp.spawn(args);
  const run: WorkerRun = {
    process,
    output: "",
    stdout: Promise.resolve(""),
    stderr: new Response(process.stderr as ReadableStream).text(),
  };
  run.stdout = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of process.stdout as ReadableStream<Uint8Array>) {
      run.output += decoder.decode(chunk, { stream: true });
    }
    return run.output;
  })();
  return run;
}

/** A killed worker's last line may be cut short: only whole lines are parsed. */
function wholeEvents(stdout: string): CliEvent[] {
  const lines = stdout.split("\n");
  lines.pop();
  return parseEvents(lines.length === 0 ? "" : `${lines.join("\n")}\n`);
}

for (const backend of BACKENDS) {
  describe(`branches run by workers on ${backend}`, () => {
    beforeEach(() => {
      storeEnv = backendEnv(backend);
      temp = createTempHome({ env: storeEnv });
    });
    afterEach(() => temp.cleanup());

    it(`four workers killed at random run a ${BRANCHES}-branch foreach: every branch joined exactly once`, async () => {
      temp.writeConfig(
        [`defaultAgent: "${fiftyFilesAgent()}"`, "worker: { retries: 2, backoffMs: 20, pollMs: 50 }"].join("\n"),
      );
      const started = await temp.uwf(["start", FILES_MAP, "-p", "Fix the imports", "--queue", "--json"]);
      expect(started.exitCode).toBe(0);
      const parent = startResultSchema.parse(started.json()).thread;

      const runs: WorkerRun[] = [];
      const live = Array.from({ length: WORKERS }, () => {
        const run = startWorker();
        runs.push(run);
        return run;
      });
      const parentStatus = () => readStore(async (store) => (await store.refs.getThread(parent))?.status);
      const deadline = performance.now() + 60_000;
      let kills = 0;
      while ((await parentStatus()) !== "ended") {
        if (performance.now() > deadline) throw new Error(`the parent is still not ended after ${kills} kills`);
        await Bun.sleep(150 + Math.floor(Math.random() * 350));
        const slot = Math.floor(Math.random() * WORKERS);
        const victim = live[slot] as WorkerRun;
        victim.process.kill("SIGKILL");
        await victim.process.exited;
        kills++;
        const replacement = startWorker();
        runs.push(replacement);
        live[slot] = replacement;
      }
      expect(kills).toBeGreaterThan(0);
      await waitFor(() => live.every((run) => run.output.includes('"worker-started"')), {
        what: "the workers starting",
        timeoutMs: 30_000,
      });
      for (const run of live) run.process.kill("SIGTERM");
      for (const run of live) {
        expect(await run.process.exited).toBe(0);
        expect(await run.stderr).toBe("");
      }
      const events = (await Promise.all(runs.map((run) => run.stdout))).flatMap(wholeEvents);

      // The parent: its own two steps, the join once.
      const log = logResultSchema.parse((await temp.uwf(["log", parent, "--json"])).json());
      expect(log.steps.map((step) => step.role)).toEqual(["splitter", "reducer"]);
      const fanOutStep = log.steps[0]?.address as string;

      await readStore(async (store) => {
        const record = await store.refs.getThread(parent);
        expect(record).toMatchObject({ status: "ended", stepCount: 2 });
        // One link per item, in item order, each to a thread of its own.
        const links = await store.refs.listBranches(parent);
        expect(links.map((link) => link.key)).toEqual(Array.from({ length: BRANCHES }, (_, index) => String(index)));
        expect(new Set(links.map((link) => link.thread)).size).toBe(BRANCHES);
        // No thread says it is a branch of the parent without a link: no duplicate was made.
        const { threads } = await store.refs.listThreads({ limit: 1000 });
        const children = threads.filter((thread) => thread.branchOf?.thread === parent);
        expect(children.map((thread) => thread.id).sort()).toEqual(links.map((link) => link.thread).sort());
        // Each branch ended with exactly one step of its own, right after the fan-out step.
        for (const child of children) {
          expect(child).toMatchObject({ status: "ended", stepCount: 2 });
          const head = threadStepNodeSchema.parse(await store.objects.get(child.head));
          expect(head).toMatchObject({ role: "fixer", prev: fanOutStep });
        }
        // The join step's branches/1 node lists all fifty, in order, each once.
        const join = (await store.objects.get(record?.head as string)) as ThreadStepNode;
        const joined = joinedBranchesNodeSchema.parse(await store.objects.get(join.joined as string));
        expect(joined.results.map((result) => [result.key, result.thread, result.status])).toEqual(
          links.map((link) => [link.key, link.thread, "ended"]),
        );
      });
      // Reported joined at most once per worker that joined it (a killed worker may have died before printing).
      const joins = events.filter((event) => event.type === "branches-joined" && event.thread === parent);
      expect(joins.length).toBeLessThanOrEqual(1);
      const verified = await temp.uwf(["cas", "verify", "--json"]);
      expect(verified.exitCode).toBe(0);
      expect(verifyReportSchema.parse(verified.json()).problems).toEqual([]);
    }, 120_000);

    it("a process killed between a branch's end and its parent's settle leaves the join to an idle worker", async () => {
      temp.writeConfig(
        [
          `defaultAgent: "scripted:${join(FIXTURES, "workflows/fan-out-review.scenario.yaml")}"`,
          "worker: { pollMs: 50 }",
        ].join("\n"),
      );
      const started = await temp.uwf(["start", REVIEW, "-p", "Add a cache", "--queue", "--json"]);
      const parent = startResultSchema.parse(started.json()).thread;
      expect((await temp.uwf(["step", parent])).exitCode).toBe(0);
      const links = await readStore((store) => store.refs.listBranches(parent));
      expect(links).toHaveLength(3);
      const [first, second, last] = links.map((link) => link.thread) as [string, string, string];
      expect((await temp.uwf(["step", first])).exitCode).toBe(0);
      expect((await temp.uwf(["step", second])).exitCode).toBe(0);
      const killed = await temp.uwf(["step", last], { env: { UWF_CRASH_AT: "before-settle" } });
      expect(killed.exitCode).toBe(137);
      // The last branch ended, but its parent was never told.
      expect((await temp.showThread(last)).status).toBe("ended");
      expect((await temp.showThread(parent)).status).toBe("waiting");

      const worker = startWorker(["worker", "--once", "--jsonl"]);
      expect(await worker.process.exited).toBe(0);
      expect(await worker.stderr).toBe("");
      const events = parseEvents(await worker.stdout);
      expect(events.filter((event) => event.type === "branches-joined")).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ type: "worker-stopped", reason: "idle", steps: 1 });
      expect(await temp.showThread(parent)).toMatchObject({ status: "ended", stepCount: 2 });
      const log = logResultSchema.parse((await temp.uwf(["log", parent, "--json"])).json());
      expect(log.steps.map((step) => step.role)).toEqual(["planner", "synthesizer"]);
    });
  });
}
