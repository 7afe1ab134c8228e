import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Store } from "@uwf/cas";
import {
  joinedBranchesNodeSchema,
  logResultSchema,
  startResultSchema,
  type ThreadStepNode,
  threadStepNodeSchema,
} from "@uwf/protocol";
import { stringify } from "yaml";
import { expectStoreVerifies } from "../../helpers/cas-nodes.ts";
import { parseEvents } from "../../helpers/cli-events.ts";
import { readHomeStore } from "../../helpers/read-home-store.ts";
import { BACKENDS, useBackendEnv } from "../../helpers/store-backends.ts";
import { createTempHome, fixtureWorkflow, scriptedFixture, type TempHome } from "../../helpers/temp-home.ts";
import { startWorkerPool, startWorkerRun } from "../../helpers/worker-pool.ts";

/**
 * Issue #31: branches run by workers that die. A queued 50-branch foreach is run by four `uwf worker`
 * processes, one of them killed with SIGKILL at random moments (and restarted at once) until the parent
 * ends: every branch must end with exactly one step of its own and be joined exactly once. And a
 * process killed between a branch's end and its parent's settle leaves the join to an idle worker.
 */

const FILES_MAP = fixtureWorkflow("fan-out-files-map");
const REVIEW = fixtureWorkflow("fan-out-review");
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

      const pool = startWorkerPool(temp, WORKERS);
      const parentStatus = () => readStore(async (store) => (await store.refs.getThread(parent))?.status);
      const kills = await pool.killUntil({
        settled: async () => (await parentStatus()) === "ended",
        pauseMs: () => 150 + Math.floor(Math.random() * 350),
        slot: () => Math.floor(Math.random() * WORKERS),
        what: "the parent ending",
        deadlineMs: 60_000,
      });
      expect(kills).toBeGreaterThan(0);
      await pool.stop();
      // A killed worker's last line may be cut short: only whole lines are parsed.
      const events = (await Promise.all(pool.runs.map((run) => run.stdout))).flatMap((stdout) =>
        parseEvents(stdout, { killed: true }),
      );

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
      await expectStoreVerifies(temp);
    }, 120_000);

    it("a process killed between a branch's end and its parent's settle leaves the join to an idle worker", async () => {
      temp.writeConfig([`defaultAgent: "${scriptedFixture("fan-out-review")}"`, "worker: { pollMs: 50 }"].join("\n"));
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

      const worker = startWorkerRun(temp, ["worker", "--once", "--jsonl"]);
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
