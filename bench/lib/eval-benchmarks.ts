/**
 * Issue 29's scoring benchmark: 1,000 stored threads of 10 steps scored with three JSONata assertions by
 * the compiled binary (`uwf eval --workflow loop --status ended --assert … --json`: open the store, list
 * the threads, load their views, score them, store the report), against the floor measured with it, and
 * the same library calls in this process, split by phase.
 */
import { join } from "node:path";
import { openFileStore } from "../../packages/cas/src/index.ts";
import { loadThreadViews, parseAssertionArguments, scoreThreads } from "../../packages/eval/src/index.ts";
import type { Address, ThreadRecord } from "../../packages/protocol/src/index.ts";
import { addStep, addWorkflow, NodeSink, threadRecord } from "../generate-store.ts";
import { type MeasureProcessOptions, measureInterleaved, round, type Summary, timeIt } from "./measure.ts";
import { SYNTHETIC_ROLE, syntheticStart } from "./synthetic-nodes.ts";
import { ulidAt } from "./ulid.ts";

export interface EvalBenchmarkPlan {
  threads: number;
  steps: number;
  runs: number;
  warmup: number;
}

/** The three assertions: the moderator's fast path, a JSONata path over the record, one over every step. */
export const EVAL_ASSERTIONS = [
  "finished=steps[-1].output.done = true",
  'ended=status = "ended" and outcome.role = "worker"',
  "numbered=$count(steps[output.n > 0]) = totals.steps",
];

export interface EvalScoringResult {
  threads: number;
  steps: number;
  nodes: number;
  generateSeconds: number;
  /** The whole scoring as its own process, cold (module load, store open, list, views, scores). */
  process: Summary;
  floorMedianMs: number;
  /** In this process, warm: each phase's median over the runs. */
  inProcess: { listMs: number; viewsMs: number; scoreMs: number; totalMs: number };
  passed: number;
}

/** The target's bound on the whole command, in milliseconds. */
const TARGET_MS = 2_000;

export async function measureEvalScoring(
  binary: string,
  temporaryRoot: string,
  plan: EvalBenchmarkPlan,
  environment: (home: string) => Record<string, string | undefined>,
  cwd: string,
): Promise<EvalScoringResult> {
  const home = join(temporaryRoot, "eval-home");
  const generated = await generateEvalStore(home, plan.threads, plan.steps, cwd);
  Bun.spawnSync(["sync"]);
  const command = [
    binary,
    "eval",
    "--workflow",
    "loop",
    "--status",
    "ended",
    ...EVAL_ASSERTIONS.flatMap((assertion) => ["--assert", assertion]),
    "--json",
  ];
  const processOptions = (command: string[]): MeasureProcessOptions => ({
    command,
    cwd,
    env: environment(home),
    runs: plan.runs,
    warmup: plan.warmup,
  });
  let passed = -1;
  const [floor, scoring] = await measureInterleaved([
    processOptions([process.execPath, "-e", "0"]),
    {
      ...processOptions(command),
      after: (run) => {
        passed = (JSON.parse(run.stdout) as { summary: { overall: { passed: number } } }).summary.overall.passed;
      },
    },
  ]);

  const list: number[] = [];
  const views: number[] = [];
  const scores: number[] = [];
  const store = await openFileStore(home);
  try {
    const assertions = parseAssertionArguments(EVAL_ASSERTIONS);
    for (let run = 0; run < plan.runs; run++) {
      const listed = await timeIt(() => store.refs.listThreads({ workflow: "loop", status: "ended" }));
      const loaded = await timeIt(() => loadThreadViews(store, listed.result.threads, { bodies: false }));
      const scored = await timeIt(() => scoreThreads({ views: loaded.result, assertions, cwd }));
      list.push(listed.ms);
      views.push(loaded.ms);
      scores.push(scored.ms);
    }
  } finally {
    await store.close();
  }
  const median = (values: number[]) => round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0);
  const inProcess = { listMs: median(list), viewsMs: median(views), scoreMs: median(scores), totalMs: 0 };
  inProcess.totalMs = round(inProcess.listMs + inProcess.viewsMs + inProcess.scoreMs);
  return {
    threads: plan.threads,
    steps: plan.steps,
    nodes: generated.nodes,
    generateSeconds: round(generated.seconds),
    process: scoring as Summary,
    floorMedianMs: (floor as Summary).medianMs,
    inProcess,
    passed,
  };
}

/** Issue 29: scoring 1,000 stored threads of 10 steps with three JSONata assertions in 2 s or less. */
export function checkEvalTargets(result: EvalScoringResult): { target: string; measured: string; met: boolean }[] {
  const { process, floorMedianMs, inProcess } = result;
  return [
    {
      target: `uwf eval of ${result.threads.toLocaleString("en-US")} stored threads of ${result.steps} steps with three JSONata assertions (open, list, views, scores, the report stored): ≤ 2 s`,
      measured: `${process.medianMs.toFixed(0)} ms = ${(process.medianMs / floorMedianMs).toFixed(1)}× the floor (in-process: list ${inProcess.listMs.toFixed(0)} ms, views ${inProcess.viewsMs.toFixed(0)} ms, scores ${inProcess.scoreMs.toFixed(0)} ms)`,
      met: process.medianMs <= TARGET_MS,
    },
  ];
}

/**
 * A file store of `threads` ended threads of `steps` steps each (six realistic nodes a step, as
 * bench/generate-store.ts writes them), each with its outcome and its chain index, as stepping them
 * would have left them.
 */
export async function generateEvalStore(
  home: string,
  threads: number,
  steps: number,
  cwd: string,
): Promise<{ nodes: number; seconds: number }> {
  const began = performance.now();
  const store = await openFileStore(home);
  try {
    const sink = new NodeSink(store, 4096);
    const { workflow, workflowAddress } = await addWorkflow(
      store,
      sink,
      join(import.meta.dir, "../fixtures/loop.yaml"),
    );
    const now = Date.now();
    const pending: { record: ThreadRecord; steps: { address: Address; role: string }[] }[] = [];
    const flush = async () => {
      await sink.flush();
      for (const { record, steps: indexSteps } of pending) {
        await store.refs.createThread(record);
        await store.refs.rememberChainIndex(record.id, { start: record.start, steps: indexSteps });
      }
      pending.length = 0;
    };
    for (let index = 0; index < threads; index++) {
      const created = new Date(now - (threads - index) * 60_000);
      const tag = `eval-${index}`;
      const start = sink.add(syntheticStart(workflowAddress, tag, cwd));
      let head: Address = start;
      const indexSteps: { address: Address; role: string }[] = [];
      for (let number = 1; number <= steps; number++) {
        const startedAt = new Date(created.getTime() + number * 30_000);
        const done = number === steps;
        head = addStep(sink, { tag, number, start, prev: number === 1 ? null : head, startedAt, cwd, done });
        indexSteps.push({ address: head, role: SYNTHETIC_ROLE });
      }
      const record = threadRecord(
        { id: ulidAt(created.getTime()), workflow: workflow.name, workflowAddress, start, head },
        { status: "ended", steps, created },
      );
      record.outcome = { role: SYNTHETIC_ROLE, status: null, edge: { index: 0, condition: "finished", key: null } };
      pending.push({ record, steps: indexSteps });
      if (pending.length >= 500) await flush();
    }
    await flush();
    return { nodes: sink.count, seconds: (performance.now() - began) / 1000 };
  } finally {
    await store.close();
  }
}
