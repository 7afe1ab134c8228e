/**
 * Issue 29: a suite of 100 scripted runs with `--parallel 4` (runSuite in one process, the threads
 * started and stepped) against the same 100 threads, started beforehand, stepped by the binary's
 * `uwf step - --all --parallel 4`. Both on the embedded (file) store of a fresh home, measured
 * round-robin. Run alone with `bun bench/lib/suite-benchmark.ts [--runs N]` (builds the binary if missing).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { openFileStore } from "../../packages/cas/src/index.ts";
import { startThread } from "../../packages/engine/src/index.ts";
import { loadSuite, runSuite } from "../../packages/eval/src/index.ts";
import { defaultConfig } from "../../packages/protocol/src/index.ts";
import { round, type Summary, summarize } from "./measure.ts";
import { type AloneContext, runAlone, targetLines } from "./run-benchmark-alone.ts";

const repositoryRoot = resolve(import.meta.dir, "../..");
const FIXTURES = join(repositoryRoot, "packages/eval/test/fixtures");
const WORKFLOW = join(FIXTURES, "workflows/fix-list.yaml");
const AGENT = `scripted:${join(FIXTURES, "scenarios/list-pass.yaml")}`;
const CASES = ["redirect", "logout", "signup", "reset"];
const REPEATS = 25;
const PARALLEL = 4;

export interface SuiteBenchResult {
  runs: number;
  stepsPerRun: number;
  parallel: number;
  /** runSuite: starting and stepping the suite's threads, in one process. */
  suite: Summary;
  /** `uwf step - --all --parallel 4` over the same threads started beforehand (not timed). */
  stepBatch: Summary;
  /** suite median / step-batch median: at most 1 meets the target. */
  ratio: number;
}

export interface SuiteBenchOptions extends AloneContext {
  /** Measured rounds of each (after one warm-up round). */
  runs: number;
}

export async function measureSuiteAgainstStepBatch(options: SuiteBenchOptions): Promise<SuiteBenchResult> {
  const root = mkdtempSync(join(options.temporaryRoot, "suite-bench-"));
  const suiteFile = join(root, "suite.yaml");
  writeFileSync(
    suiteFile,
    [
      "name: bench",
      `workflow: ${WORKFLOW}`,
      `repeat: ${REPEATS}`,
      "cases:",
      ...CASES.map((name) => `  - { name: ${name}, prompt: "Fix the ${name} bug" }`),
      "variants:",
      `  - { name: scripted, agent: "${AGENT}" }`,
      "",
    ].join("\n"),
  );
  const suite = loadSuite(suiteFile);
  const runs = CASES.length * REPEATS;
  const suiteSamples: number[] = [];
  const batchSamples: number[] = [];
  let homes = 0;
  let ids = 0;
  const newId = () => `01JBENCH${String(++ids).padStart(18, "0")}`;
  const newHome = () => {
    const home = join(root, `home-${++homes}`);
    mkdirSync(home, { recursive: true });
    return home;
  };

  const timeSuite = async (): Promise<number> => {
    const home = newHome();
    const began = performance.now();
    const store = await openFileStore(home);
    try {
      const result = await runSuite(suite, {
        store,
        config: defaultConfig(),
        home,
        runsDir: join(home, "runs"),
        parallel: PARALLEL,
        signal: new AbortController().signal,
        host: "bench",
        now: () => new Date(),
        newId,
      });
      const ms = performance.now() - began;
      const unfinished = result.runs.filter((run) => run.error !== null || run.record?.status !== "ended");
      if (unfinished.length > 0) throw new Error(`runSuite left runs unfinished: ${JSON.stringify(unfinished[0])}`);
      return ms;
    } finally {
      await store.close();
    }
  };

  const timeStepBatch = async (): Promise<number> => {
    const home = newHome();
    const work = join(home, "work");
    mkdirSync(work);
    const store = await openFileStore(home);
    const threads: string[] = [];
    try {
      for (const name of CASES) {
        for (let repeat = 0; repeat < REPEATS; repeat++) {
          const record = await startThread({
            store,
            config: defaultConfig(),
            workflowReference: WORKFLOW,
            prompt: `Fix the ${name} bug`,
            threadCwd: work,
            cwd: work,
            home,
            now: () => new Date(),
            newId,
          });
          threads.push(record.id);
        }
      }
    } finally {
      await store.close();
    }
    const began = performance.now();
    const child = Bun.spawn(
      [options.binary, "step", "-", "--all", "--parallel", String(PARALLEL), "--agent", AGENT, "--json"],
      { cwd: work, env: options.environment(home), stdin: "pipe", stdout: "pipe", stderr: "pipe" },
    );
    child.stdin.write(`${threads.join("\n")}\n`);
    await child.stdin.end();
    const [exitCode, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    await new Response(child.stdout).text();
    const ms = performance.now() - began;
    if (exitCode !== 0) throw new Error(`uwf step - --all exited with ${exitCode}: ${stderr.slice(-2000)}`);
    const check = await openFileStore(home);
    try {
      for (const id of threads) {
        const record = await check.refs.getThread(id);
        if (record?.status !== "ended") throw new Error(`uwf step - --all left ${id} ${record?.status}`);
      }
    } finally {
      await check.close();
    }
    return ms;
  };

  for (let round = 0; round <= options.runs; round++) {
    const suiteMs = await timeSuite();
    const batchMs = await timeStepBatch();
    // Round 0 warms up (page cache, the first loads of the modules); it is not kept.
    if (round > 0) {
      suiteSamples.push(suiteMs);
      batchSamples.push(batchMs);
    }
    options.progress(
      `suite of ${runs} scripted runs: runSuite ${Math.round(suiteMs)} ms, step - --all --parallel ${PARALLEL} ${Math.round(batchMs)} ms${round === 0 ? " (warm-up)" : ""}`,
    );
  }
  rmSync(root, { recursive: true, force: true });
  const suiteSummary = summarize(suiteSamples);
  const batchSummary = summarize(batchSamples);
  return {
    runs,
    stepsPerRun: 2,
    parallel: PARALLEL,
    suite: suiteSummary,
    stepBatch: batchSummary,
    ratio: round(suiteSummary.medianMs / batchSummary.medianMs, 2),
  };
}

export function checkSuiteTargets(result: SuiteBenchResult): { target: string; measured: string; met: boolean }[] {
  return [
    {
      target: `a suite of ${result.runs} scripted runs with --parallel ${result.parallel}: no slower than the same threads stepped by \`step - --all --parallel ${result.parallel}\``,
      measured: `runSuite ${result.suite.medianMs} ms, step batch ${result.stepBatch.medianMs} ms (${result.ratio}×)`,
      met: result.ratio <= 1,
    },
  ];
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "3" } } });
  await runAlone(
    "uwf-suite-bench-",
    (context) => measureSuiteAgainstStepBatch({ ...context, runs: Number(values.runs) }),
    (result) => targetLines(checkSuiteTargets(result)),
  );
}
