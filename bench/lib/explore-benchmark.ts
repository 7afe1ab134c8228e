/**
 * Issue 47: `uwf explore` of a 20-step thread with 5 samples per step (100 forks, each run to its end
 * with a scripted agent, then scored and stored) against the same 100 forks made beforehand and stepped
 * by `uwf step - --all --parallel 4`. Both run by the compiled binary on the embedded (file) store of
 * a fresh home, measured round-robin; the target is explore within 2× the step batch. Run alone with
 * `bun bench/lib/explore-benchmark.ts [--smoke]` (builds the binary if missing).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openFileStore } from "../../packages/cas/src/index.ts";
import { forkThreads, readChain, startThread, stepUntilDone } from "../../packages/engine/src/index.ts";
import { defaultConfig } from "../../packages/protocol/src/index.ts";
import { round, type Summary, summarize } from "./measure.ts";
import { type AloneOptions, runBenchmarkAlone } from "./run-benchmark-alone.ts";
import type { StepBatchComparison } from "./step-batch-comparison.ts";

const STEPS = 20;
const SAMPLES = 5;
const PARALLEL = 4;

export interface ExploreBenchPlan {
  /** Measured rounds of each (after one warm-up round). */
  runs: number;
}

export const FULL_EXPLORE_PLAN: ExploreBenchPlan = { runs: 3 };
export const SMOKE_EXPLORE_PLAN: ExploreBenchPlan = { runs: 1 };

/** `stepBatch` steps the same 100 forks; `ratio` is explore's median over its: at most 2 meets the target. */
export interface ExploreBenchResult extends StepBatchComparison {
  steps: number;
  samples: number;
  forks: number;
  /** `uwf explore T --samples 5 --parallel 4`: forks made, run to their ends, scored and stored. */
  explore: Summary;
}

/** A workflow of one role that loops until it has spoken STEPS times, and a scenario that plays each step. */
function writeFixtures(root: string): { workflow: string; agent: string } {
  const workflow = join(root, "loop.yaml");
  writeFileSync(
    workflow,
    [
      "name: loop",
      "description: One role, twenty times",
      "roles:",
      "  worker:",
      "    goal: Do one round.",
      "    frontmatter:",
      "      type: object",
      "      properties: { round: { type: integer } }",
      "      required: [round]",
      "conditions:",
      "  more:",
      "    description: fewer than twenty rounds so far",
      `    expression: '$count("worker") < ${STEPS}'`,
      "graph:",
      "  $START:",
      "    - { role: worker, prompt: Start. }",
      "  worker:",
      "    - { role: worker, condition: more, prompt: Go on. }",
      "    - { role: $END, prompt: Done. }",
      "",
    ].join("\n"),
  );
  const scenario = join(root, "loop.scenario.yaml");
  writeFileSync(
    scenario,
    [
      "steps:",
      ...Array.from({ length: STEPS }, (_, index) => `  - { role: worker, output: { round: ${index + 1} } }`),
      "",
    ].join("\n"),
  );
  return { workflow, agent: `scripted:${scenario}` };
}

export async function measureExploreAgainstStepBatch(
  options: AloneOptions<ExploreBenchPlan>,
): Promise<ExploreBenchResult> {
  const root = mkdtempSync(join(options.temporaryRoot, "explore-bench-"));
  const { workflow, agent } = writeFixtures(root);
  let homes = 0;
  let ids = 0;
  const newId = () => `01JBENCH${String(++ids).padStart(18, "0")}`;

  /** A fresh home holding the 20-step thread, run to its end in-process (not timed). */
  const prepare = async () => {
    const home = join(root, `home-${++homes}`);
    const work = join(home, "work");
    mkdirSync(work, { recursive: true });
    const store = await openFileStore(home);
    try {
      const config = defaultConfig();
      const record = await startThread({
        store,
        config,
        workflowReference: workflow,
        prompt: "Explore me",
        threadCwd: work,
        cwd: work,
        home,
        now: () => new Date(),
        newId,
      });
      const done = await stepUntilDone({
        store,
        config,
        home,
        threadId: record.id,
        maxSteps: Number.POSITIVE_INFINITY,
        defaultAgent: agent,
        signal: new AbortController().signal,
        host: "bench",
        now: () => new Date(),
        onProgress: () => {},
        onStderr: () => {},
      });
      if (done.record.status !== "ended" || done.record.stepCount !== STEPS) {
        throw new Error(`the ${STEPS}-step thread did not end: ${done.record.status} after ${done.record.stepCount}`);
      }
      return { home, work, thread: done.record };
    } finally {
      await store.close();
    }
  };

  const run = async (args: string[], home: string, work: string, stdin?: string) => {
    const began = performance.now();
    const child = Bun.spawn([options.binary, ...args], {
      cwd: work,
      env: options.environment(home),
      stdin: stdin === undefined ? "ignore" : "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    if (stdin !== undefined) {
      const input = child.stdin as unknown as { write(text: string): void; end(): Promise<void> | void };
      input.write(stdin);
      await input.end();
    }
    const [exitCode, stdout, stderr] = await Promise.all([
      child.exited,
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
    ]);
    const ms = performance.now() - began;
    if (exitCode !== 0) throw new Error(`uwf ${args[0]} exited with ${exitCode}: ${stderr.slice(-2000)}`);
    return { ms, stdout };
  };

  const timeExplore = async (): Promise<number> => {
    const { home, work, thread } = await prepare();
    const { ms, stdout } = await run(
      ["explore", thread.id, "--samples", String(SAMPLES), "--parallel", String(PARALLEL), "--agent", agent, "--json"],
      home,
      work,
    );
    const result = JSON.parse(stdout) as { steps: Array<{ samples: number; passed: number }> };
    const passed = result.steps.reduce((sum, step) => sum + step.passed, 0);
    if (result.steps.length !== STEPS || passed !== STEPS * SAMPLES) {
      throw new Error(`uwf explore left re-runs unfinished: ${passed} of ${STEPS * SAMPLES} passed`);
    }
    return ms;
  };

  const timeStepBatch = async (): Promise<number> => {
    const { home, work, thread } = await prepare();
    const store = await openFileStore(home);
    const forks: string[] = [];
    try {
      const chain = await readChain(store, thread.head, { thread });
      for (let step = 1; step <= STEPS; step++) {
        const address = step === 1 ? chain.startAddress : (chain.steps[step - 2] as { address: string }).address;
        const made = await forkThreads({
          store,
          address,
          parent: thread,
          forks: Array.from({ length: SAMPLES }, () => null),
          now: () => new Date(),
          newId,
        });
        forks.push(...made.map((record) => record.id));
      }
    } finally {
      await store.close();
    }
    const { ms } = await run(
      ["step", "-", "--all", "--parallel", String(PARALLEL), "--agent", agent, "--json"],
      home,
      work,
      `${forks.join("\n")}\n`,
    );
    return ms;
  };

  const exploreSamples: number[] = [];
  const batchSamples: number[] = [];
  for (let index = 0; index <= options.plan.runs; index++) {
    const exploreMs = await timeExplore();
    const batchMs = await timeStepBatch();
    // Round 0 warms up (page cache, the first loads of the modules); it is not kept.
    if (index > 0) {
      exploreSamples.push(exploreMs);
      batchSamples.push(batchMs);
    }
    options.progress(
      `explore of a ${STEPS}-step thread × ${SAMPLES}: ${Math.round(exploreMs)} ms, step - --all --parallel ${PARALLEL} of the same forks ${Math.round(batchMs)} ms${index === 0 ? " (warm-up)" : ""}`,
    );
  }
  rmSync(root, { recursive: true, force: true });
  const explore = summarize(exploreSamples);
  const stepBatch = summarize(batchSamples);
  return {
    steps: STEPS,
    samples: SAMPLES,
    forks: STEPS * SAMPLES,
    parallel: PARALLEL,
    explore,
    stepBatch,
    ratio: round(explore.medianMs / stepBatch.medianMs, 2),
  };
}

export function checkExploreTargets(result: ExploreBenchResult): { target: string; measured: string; met: boolean }[] {
  return [
    {
      target: `\`uwf explore\` of a ${result.steps}-step thread × ${result.samples} samples (${result.forks} forks, --parallel ${result.parallel}): within 2× the same forks stepped by \`step - --all --parallel ${result.parallel}\``,
      measured: `explore ${result.explore.medianMs} ms, step batch ${result.stepBatch.medianMs} ms (${result.ratio}×)`,
      met: result.ratio <= 2,
    },
  ];
}

if (import.meta.main) {
  await runBenchmarkAlone({
    name: "uwf-explore-bench-",
    plans: { full: FULL_EXPLORE_PLAN, smoke: SMOKE_EXPLORE_PLAN },
    measure: measureExploreAgainstStepBatch,
    report: (result) =>
      checkExploreTargets(result).map(
        (target) => `${target.met ? "met" : "MISSED"}: ${target.target}: ${target.measured}`,
      ),
  });
}
