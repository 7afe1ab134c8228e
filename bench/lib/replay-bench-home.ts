import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openFileStore } from "../../packages/cas/src/index.ts";
import {
  forkThreads,
  readChain,
  registerWorkflowFile,
  startThreads,
  stepThread,
} from "../../packages/engine/src/index.ts";
import { type Address, defaultConfig, type ThreadRecord } from "../../packages/protocol/src/index.ts";
import { scriptedStepOptions } from "./scripted-step-options.ts";
import { ulidAt } from "./ulid.ts";

const repositoryRoot = resolve(import.meta.dir, "../..");
export const LOOP_WORKFLOW_FILE = join(repositoryRoot, "bench/fixtures/loop.yaml");
export const LOOP_WORKFLOW_NAME = "loop";
/** Steps of every thread of the replayed family; the forks are made at steps FORK_FROM… of the original. */
export const FAMILY_STEPS = 10;
const FORK_POINTS = [5, 6, 7, 8, 9];
/** Threads stepped at once while the store is built (not measured). */
const BUILD_LANES = 4;

/** What the home holds: how many forks the replayed family has, how long the exported thread is. */
export interface BenchHomePlan {
  /** Forks of the original in the replayed family (the family is one more). */
  familyForks: number;
  /** Steps of the exported thread. */
  exportSteps: number;
}

/**
 * The home the replay, export, OTel and MCP benchmarks run on, built in-process through the engine (threads of
 * bench/fixtures/loop.yaml started by startThreads, stepped by stepThread with the scripted agent, forked by
 * forkThreads): a family of threads of FAMILY_STEPS steps (an original that ended at its last step, and forks
 * of it made at its steps 5–9, each stepped to its own end), a long thread to export and a 1-step thread.
 */
export interface BenchHome {
  home: string;
  work: string;
  original: string;
  family: number;
  longThread: string;
  /** A 1-step thread, stepped once more by each `uwf step` run and reset after it. */
  stepThread: { id: string; head: Address; steps: number };
  familyScenario: string;
  buildSeconds: number;
  totalSteps: number;
}

/** The scripted agent's entry N is step N's reply; the thread ends at step `doneAt`. */
function writeLoopScenario(file: string, steps: number, doneAt: number): string {
  const entries = Array.from({ length: steps }, (_, index) => ({
    role: "worker",
    output: { n: index + 1, done: index + 1 === doneAt, summary: `benchmark step ${index + 1}` },
    body: `Did step ${index + 1} of the benchmark thread.`,
  }));
  writeFileSync(file, JSON.stringify({ steps: entries }));
  return file;
}

export async function buildHome(home: string, plan: BenchHomePlan): Promise<BenchHome> {
  const began = performance.now();
  const work = join(home, "work");
  mkdirSync(work, { recursive: true });
  const familyScenario = writeLoopScenario(join(home, "family.scenario.json"), FAMILY_STEPS, FAMILY_STEPS);
  const longScenario = writeLoopScenario(join(home, "long.scenario.json"), plan.exportSteps, plan.exportSteps);
  const store = await openFileStore(home);
  const config = defaultConfig();
  const now = () => new Date();
  const newId = () => ulidAt(Date.now());
  let totalSteps = 0;
  const step = async (id: string, agent: string): Promise<ThreadRecord> => {
    const outcome = await stepThread(scriptedStepOptions(store, config, home, id, agent));
    totalSteps++;
    return outcome.record;
  };
  const untilEnded = async (id: string, agent: string): Promise<ThreadRecord> => {
    for (;;) {
      const record = await step(id, agent);
      if (record.status !== "active") return record;
    }
  };
  try {
    const { workflow } = await registerWorkflowFile({ store, file: LOOP_WORKFLOW_FILE, now });
    const [original, long, stepped] = (await startThreads({
      store,
      config,
      workflowReference: workflow.name,
      starts: ["Replayed family", "Exported thread", "Stepped thread"].map((prompt) => ({ prompt })),
      // The default budget stops a thread at 100 steps; the exported one has more.
      limits: { maxSteps: plan.exportSteps + FAMILY_STEPS },
      cwd: work,
      home,
      now,
      newId,
    })) as [ThreadRecord, ThreadRecord, ThreadRecord];
    const ended = await untilEnded(original.id, familyScenario);
    if (ended.status !== "ended" || ended.stepCount !== FAMILY_STEPS)
      throw new Error(`original: ${JSON.stringify(ended)}`);
    const chain = await readChain(store, ended.head);

    // The forks, in equal shares at each fork point, then each stepped to its end.
    const forks: string[] = [];
    for (const [index, point] of FORK_POINTS.entries()) {
      const count =
        Math.floor(plan.familyForks / FORK_POINTS.length) + (index < plan.familyForks % FORK_POINTS.length ? 1 : 0);
      if (count === 0) continue;
      const address = chain.steps[point - 1]?.address;
      if (address === undefined) throw new Error(`no step ${point}`);
      const made = await forkThreads({ store, address, forks: Array(count).fill(null), now, newId });
      forks.push(...made.map((record) => record.id));
    }
    const jobs = [...forks];
    const lane = async () => {
      for (let id = jobs.shift(); id !== undefined; id = jobs.shift()) {
        const record = await untilEnded(id, familyScenario);
        if (record.status !== "ended" || record.stepCount !== FAMILY_STEPS)
          throw new Error(`fork ${id}: ${record.status} at ${record.stepCount}`);
      }
    };
    await Promise.all(Array.from({ length: BUILD_LANES }, lane));

    for (let index = 0; index < plan.exportSteps; index++) await step(long.id, longScenario);
    const afterOne = await step(stepped.id, familyScenario);
    return {
      home,
      work,
      original: original.id,
      family: forks.length + 1,
      longThread: long.id,
      stepThread: { id: stepped.id, head: afterOne.head, steps: afterOne.stepCount },
      familyScenario,
      buildSeconds: (performance.now() - began) / 1000,
      totalSteps,
    };
  } finally {
    await store.close();
  }
}
