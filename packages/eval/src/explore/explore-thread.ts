import type {
  BudgetLimits,
  EvalAssertion,
  EvalReportEntry,
  EvalSample,
  ExploreGate,
  ExploreReportNode,
} from "@uwf/protocol";
import { checkUniqueAssertionNames, parseAssertionArguments } from "../assertions/parse-assertion.ts";
import { withDefaultAssertion } from "../evaluate/default-assertions.ts";
import type { EvaluateOptions } from "../evaluate/evaluate-options.ts";
import { resolveAssertionPaths } from "../evaluate/resolve-assertion-paths.ts";
import { scoreStoredThreads } from "../evaluate/score-stored-threads.ts";
import { readSuiteAssertions } from "../evaluate/suite-assertions.ts";
import { saveEvalReport } from "../report/save-eval-report.ts";
import { loadSuite } from "../suite/load-suite.ts";
import type { ThreadViewTarget } from "../view/load-thread-view.ts";
import type { ExplorationTarget } from "./read-exploration-target.ts";
import { type ExplorationRun, type ExplorationRunResult, runExploration } from "./run-exploration.ts";

/** A stored exploration: its entry in the report list and its node. */
export interface StoredExploreReport {
  entry: EvalReportEntry;
  node: ExploreReportNode;
}

export interface ExploreThreadOptions extends Omit<EvaluateOptions, "gate"> {
  target: ExplorationTarget;
  /** The step numbers to resample, in order (each within the thread's steps). */
  steps: readonly number[];
  samples: number;
  /** A suite file whose `assert:` items score the re-runs too (its cases and runs are not used). */
  suite?: string;
  parallel?: number;
  /** The whole exploration's spend limit (`--max-cost`). */
  maxCostUsd?: number;
  /** Each fork's own limits. */
  limits?: Partial<BudgetLimits>;
  /** An earlier exploration of the thread whose forks are scored (and finished) instead of new ones. */
  reuse?: StoredExploreReport;
  gate: ExploreGate | null;
  onRunFinished?(run: ExplorationRun): void;
}

export interface ExploreThreadOutcome extends Omit<ExplorationRunResult, "runs"> {
  stored: StoredExploreReport;
}

/**
 * Explores a thread: resamples it from each chosen step (runExploration), scores the thread itself and
 * every re-run with the assertions (`--assert`, a suite's, else the default; with `reuse` and none
 * given, the earlier exploration's), and stores the report (`explore-report/1`) in the report list
 * under the exploration's id, which its forks are tagged with. Re-runs Ctrl-C or the budget left
 * unfinished are errored samples; forks never made are listed as unstarted. After Ctrl-C the re-runs
 * are still scored (scorers and judges have their own timeouts), so what finished is kept.
 */
export async function exploreThread(options: ExploreThreadOptions): Promise<ExploreThreadOutcome> {
  const assertions = exploreAssertions(options);
  const exploration = options.newId();
  const reuse = options.reuse === undefined ? undefined : forksByStep(options.reuse.node);
  const result = await runExploration({
    store: options.store,
    config: options.config,
    home: options.home,
    host: options.host,
    now: options.now,
    newId: options.newId,
    signal: options.signal,
    target: options.target,
    steps: options.steps,
    samples: options.samples,
    exploration,
    ...(reuse === undefined ? {} : { reuse }),
    parallel: options.parallel,
    maxCostUsd: options.maxCostUsd,
    limits: options.limits,
    defaultAgent: options.defaultAgent,
    timeoutSeconds: options.timeoutSeconds,
    onRunFinished: options.onRunFinished,
    onWarning: options.onNote,
  });
  // Scoring finishes after Ctrl-C: the runs it stopped are kept, judged as far as they got.
  const scoring = { ...options, signal: options.signal.aborted ? new AbortController().signal : options.signal };
  const ran = result.runs.filter((run) => run.record !== null);
  const targets: ThreadViewTarget[] = [
    { record: options.target.record },
    ...ran.map((run) => ({
      record: run.record as NonNullable<ExplorationRun["record"]>,
      eval: { case: `step ${run.step}`, variant: null, repeat: run.repeat },
    })),
  ];
  const sampleErrors = new Map<string, string>();
  for (const run of ran) if (run.error !== null) sampleErrors.set((run.record as { id: string }).id, run.error);
  const samples = await scoreStoredThreads(options.store, targets, assertions, scoring, sampleErrors);
  const [original, ...reruns] = samples as [EvalSample, ...EvalSample[]];
  const byRun = new Map(ran.map((run, index) => [run, reruns[index] as EvalSample]));
  const node: ExploreReportNode = {
    type: "explore-report/1",
    name: options.name ?? `explore ${options.target.record.id}`,
    createdAt: options.now().toISOString(),
    thread: options.target.record.id,
    head: options.target.record.head,
    samplesPerStep: options.samples,
    assertions,
    original,
    steps: options.steps.map((step) => {
      const point = options.target.points[step - 1] as ExplorationTarget["points"][number];
      const runs = result.runs.filter((run) => run.step === step);
      return {
        step,
        role: point.role,
        from: point.from,
        samples: runs.flatMap((run) => {
          const sample = byRun.get(run);
          return sample === undefined ? [] : [sample];
        }),
        unstarted: runs
          .filter((run) => run.record === null)
          .map((run) => ({ repeat: run.repeat, error: run.error ?? "the re-run was not made" })),
      };
    }),
    gate: options.gate,
    rescoredFrom: null,
  };
  const entry = await saveEvalReport(options.store, node, () => exploration);
  return { stored: { entry, node }, spentUsd: result.spentUsd, stoppedBy: result.stoppedBy };
}

/** The assertions of an exploration: the suite's and `--assert`'s; with none, an earlier exploration's, or the default. */
function exploreAssertions(options: ExploreThreadOptions): EvalAssertion[] {
  const fromSuite: EvalAssertion[] = [];
  if (options.suite !== undefined) {
    const suite = loadSuite(options.suite);
    fromSuite.push(...resolveAssertionPaths(readSuiteAssertions(suite).suite, suite.dir));
  }
  const flagged = resolveAssertionPaths(parseAssertionArguments(options.assertions), options.cwd);
  const given = [...fromSuite, ...flagged];
  const assertions =
    given.length === 0 && options.reuse !== undefined
      ? options.reuse.node.assertions
      : withDefaultAssertion(given, options.onNote);
  checkUniqueAssertionNames(assertions);
  return assertions;
}

/** The forks an exploration made, by step, in order. */
function forksByStep(node: ExploreReportNode): Map<number, string[]> {
  return new Map(node.steps.map((step) => [step.step, step.samples.map((sample) => sample.thread)]));
}
