import { join } from "node:path";
import type { EvalReportNode } from "@uwf/protocol";
import { parseAssertionArguments } from "../assertions/parse-assertion.ts";
import { InvalidSuiteError } from "../errors/invalid-suite-error.ts";
import type { StoredEvalReport } from "../report/resolve-eval-report.ts";
import { saveEvalReport } from "../report/save-eval-report.ts";
import { runSuite } from "../run/run-suite.ts";
import { assertionsNeedBodies } from "../score/score-threads.ts";
import { loadSuite, parseSuiteSource } from "../suite/load-suite.ts";
import { loadThreadViews, type ThreadViewTarget } from "../view/load-thread-view.ts";
import { checkStoredJudges, isStoredWorkflow } from "./check-stored-judges.ts";
import { withDefaultAssertion } from "./default-assertions.ts";
import type { EvaluateOptions } from "./evaluate-options.ts";
import { judgeContextOf } from "./judge-context.ts";
import { resolveAssertionPaths } from "./resolve-assertion-paths.ts";
import { allAssertions, type ScoreGroup, scoreGroups } from "./score-groups.ts";
import { readSuiteAssertions } from "./suite-assertions.ts";

export interface EvaluateSuiteOptions extends EvaluateOptions {
  /** The suite file, absolute. */
  file: string;
  /** The suite's text, instead of reading `file` (which then only places relative paths and problems). */
  source?: string;
  /** Runs stepped at once in this process (default 4). */
  parallel?: number;
  queue: boolean;
  fresh: boolean;
  /** With `from:`: forks per variant, over the file's `count:`. */
  count?: number;
  /** `--max-cost`: the smaller of it and the file's `max_cost_usd` applies. */
  maxCostUsd?: number;
  /** `--max-runs`: the most runs this call may start (default MAX_SUITE_RUNS). */
  maxRuns?: number;
  /** A run started (or found from an earlier run) and finished: progress for the terminal. */
  onRunStarted?(run: {
    thread: string;
    case: string | null;
    variant: string | null;
    repeat: number;
    reused: boolean;
  }): void;
  onRunFinished?(run: { thread: string | null; case: string | null; variant: string | null; repeat: number }): void;
}

/**
 * A suite sent as text (`uwf mcp`): with `workflowFiles: false`, a `workflow:` that names no stored
 * workflow is refused before anything starts, with the very problem a file path gets.
 */
async function parseRequestedSuite(options: EvaluateSuiteOptions, source: string) {
  const parse = (unknownWorkflows?: ReadonlySet<string>) =>
    parseSuiteSource(source, options.file, {
      workflowFiles: options.workflowFiles,
      ...(unknownWorkflows === undefined ? {} : { unknownWorkflows }),
    });
  const parsed = parse();
  if (options.workflowFiles !== false) return parsed;
  const references = [parsed.workflow, ...parsed.variants.map((variant) => variant.workflow)];
  const unknown = new Set<string>();
  for (const reference of new Set(references)) {
    if (reference !== null && !(await isStoredWorkflow(options, reference))) unknown.add(reference);
  }
  return unknown.size === 0 ? parsed : parse(unknown);
}

/** Where the suite's runs get their working directories: a folder of the home, one per run (docs/suites.md). */
export function suiteRunsDir(home: string): string {
  return join(home, "eval", "runs");
}

/**
 * Runs a suite (checked whole first, its assertions included), scores every thread it ran or reused
 * with the suite's assertions, its case's and the `--assert` given, and stores the report. A run that
 * could not start is listed apart (`unstarted`); one the suite's budget or Ctrl-C left unfinished is
 * an errored sample.
 */
export async function evaluateSuite(options: EvaluateSuiteOptions): Promise<StoredEvalReport> {
  const loaded =
    options.source === undefined ? loadSuite(options.file) : await parseRequestedSuite(options, options.source);
  if (options.count !== undefined && loaded.from === null) {
    const problem = "--count sets how many forks of `from:` each variant makes; this suite has cases (use repeat:)";
    throw new InvalidSuiteError(loaded.file, [
      { file: loaded.file, line: 1, column: 1, path: "count", message: problem },
    ]);
  }
  const suite = options.count === undefined ? loaded : { ...loaded, count: options.count };
  const read = readSuiteAssertions(suite);
  const flagged = parseAssertionArguments(options.assertions);
  if (options.workflowFiles === false) {
    const everyAssertion = [...read.suite, ...[...read.byCase.values()].flat(), ...flagged];
    await checkStoredJudges(everyAssertion, options);
  }
  const assertionsOf = (caseName: string | null) =>
    resolveAssertionPaths(
      withDefaultAssertion([
        ...read.suite,
        ...(caseName === null ? [] : (read.byCase.get(caseName) ?? [])),
        ...flagged,
      ]),
      suite.dir,
    );
  if (
    [...read.suite, ...flagged].length === 0 &&
    suite.cases.every((each) => (read.byCase.get(each.name) ?? []).length === 0)
  ) {
    withDefaultAssertion([], options.onNote);
  }
  const result = await runSuite(suite, {
    store: options.store,
    config: options.config,
    home: options.home,
    runsDir: suiteRunsDir(options.home),
    parallel: options.parallel ?? 4,
    queue: options.queue,
    fresh: options.fresh,
    maxCostUsd: options.maxCostUsd,
    ...(options.maxRuns === undefined ? {} : { maxRuns: options.maxRuns }),
    timeoutSeconds: options.timeoutSeconds,
    signal: options.signal,
    host: options.host,
    now: options.now,
    newId: options.newId,
    onRunStarted: options.onRunStarted,
    onRunFinished: options.onRunFinished,
    onWarning: options.onNote,
  });
  // Ctrl-C or SIGTERM: nothing more is run, but the report of what was is stored (the caller exits 130).
  const interrupted = result.stoppedBy === "interrupted" || options.signal.aborted;
  const byCase = new Map<string | null, { targets: ThreadViewTarget[]; errors: Map<string, string> }>();
  const unstarted: EvalReportNode["unstarted"] = [];
  for (const run of result.runs) {
    if (run.record === null) {
      unstarted.push({
        case: run.case,
        variant: run.variant,
        repeat: run.repeat,
        error: run.error ?? "the run did not start",
      });
      continue;
    }
    const group = byCase.get(run.case) ?? { targets: [] as ThreadViewTarget[], errors: new Map<string, string>() };
    group.targets.push({ record: run.record, eval: { case: run.case, variant: run.variant, repeat: run.repeat } });
    if (run.error !== null) group.errors.set(run.record.id, run.error);
    byCase.set(run.case, group);
  }
  const scoring: ScoreGroup[] = [];
  for (const [caseName, group] of byCase) {
    const assertions = assertionsOf(caseName);
    // An interrupted suite still reads what it ran (the store only), to store the report of what finished.
    const views = await loadThreadViews(options.store, group.targets, {
      bodies: assertionsNeedBodies(assertions),
      ...(interrupted ? {} : { signal: options.signal }),
    });
    scoring.push({ views, assertions, sampleErrors: group.errors });
  }
  const judge = judgeContextOf(options);
  const samples = await scoreGroups(scoring, {
    cwd: suite.dir,
    judge,
    signal: options.signal,
    afterInterrupt: interrupted,
  });
  judge.noteReused();
  const text = await options.store.objects.put({ type: "text/1", text: suite.text });
  const node: EvalReportNode = {
    type: "eval-report/1",
    name: options.name ?? suite.name,
    createdAt: options.now().toISOString(),
    source: { kind: "suite", file: suite.file, text },
    assertions: scoring.length === 0 ? assertionsOf(null) : allAssertions(scoring),
    samples,
    unstarted,
    gate: options.gate === null ? suite.gate : { ...suite.gate, ...options.gate },
    rescoredFrom: null,
  };
  return { entry: await saveEvalReport(options.store, node, options.newId), node };
}
