import { type EvalAssertion, type EvalSample, type EvalScore, type EvalThreadView, InternalError } from "@uwf/protocol";
import { checkUniqueAssertionNames } from "../assertions/parse-assertion.ts";
import { mapConcurrently } from "../concurrency/map-concurrently.ts";
import type { AssertionResult } from "./assertion-result.ts";
import { errored } from "./assertion-result.ts";
import { DEFAULT_COMMAND_TIMEOUT_SECONDS, scoreCommand, scorerCwd } from "./score-command.ts";
import { type CompiledExpression, compileExpression } from "./score-jsonata.ts";
import { type JudgeContext, type PreparedJudge, prepareJudge, scoreJudge } from "./score-judge.ts";
import { scoreOutcome, scoreStatus } from "./score-outcome.ts";

/** Command scorers and judging threads run at once by default. */
export const DEFAULT_SCORING_CONCURRENCY = 4;

export interface ScoreThreadsOptions {
  /** The threads, as loadThreadViews gives them: with bodies when a command scorer or judge is among the assertions. */
  views: readonly EvalThreadView[];
  assertions: readonly EvalAssertion[];
  /** What a command scorer's `cwd` is resolved against, and where one without runs: the suite's folder, or the current directory. */
  cwd: string;
  /** What judging threads need; required when an assertion is a judge. */
  judge?: JudgeContext;
  /** Command scorers and judging threads run at once (default 4); expressions and shorthands are evaluated in turn. */
  concurrency?: number;
  /** Milliseconds one JSONata expression may run on one thread before it errs (default 2,000). */
  expressionTimeoutMs?: number;
  /** Stops the scorers and judges running, and starts no more. */
  signal?: AbortSignal;
  /**
   * Scoring what an interrupted suite ran: the expressions and shorthands are evaluated, and the command
   * scorers and judges, which `signal` (already aborted) forbids to start, err as not run, so the
   * report of what finished can still be stored.
   */
  afterInterrupt?: boolean;
  /**
   * Why a view's sample errs without an assertion erring (a run that failed to start), by thread id:
   * such a sample is `errored` whatever its scores.
   */
  sampleErrors?: ReadonlyMap<string, string>;
}

/** Whether any of the assertions reads step bodies (a command scorer or a judge), so views must be loaded with them. */
export function assertionsNeedBodies(assertions: readonly EvalAssertion[]): boolean {
  return assertions.some((assertion) => assertion.kind === "command" || assertion.kind === "judge");
}

/**
 * Scores each thread with every assertion, as one sample per view (in the views' order) with one score
 * per assertion (in the assertions' order). JSONata expressions are compiled once; command scorers and
 * judges run with bounded concurrency. A sample is `errored` when an assertion erred (or
 * `sampleErrors` names it), else `passed` when every assertion passed, else `failed`; its score is the
 * weighted mean (weight default 1) of the scores that did not err.
 *
 * Throws InvalidAssertionError for duplicate names or an expression that does not compile, and the
 * engine's errors when a judge's workflow cannot be resolved: before anything runs.
 */
export async function scoreThreads(options: ScoreThreadsOptions): Promise<EvalSample[]> {
  const { views, assertions } = options;
  checkUniqueAssertionNames(assertions);
  const expressions = new Map<string, CompiledExpression>();
  const judges = new Map<string, PreparedJudge>();
  for (const assertion of assertions) {
    if (assertion.kind === "jsonata") {
      expressions.set(assertion.name, compileExpression(assertion.name, assertion.expr, options.expressionTimeoutMs));
    }
    if (assertion.kind === "judge") {
      if (options.judge === undefined)
        throw new InternalError(`scoreThreads: the judge ${assertion.name} needs a judge context`);
      judges.set(assertion.name, await prepareJudge(assertion, options.judge));
    }
  }

  // Direct assertions in turn (they are microseconds each); slow ones queued for the pool.
  const results: AssertionResult[][] = views.map(() => new Array<AssertionResult>(assertions.length));
  const slow: { view: number; assertion: number }[] = [];
  for (const [viewIndex, view] of views.entries()) {
    for (const [assertionIndex, assertion] of assertions.entries()) {
      const row = results[viewIndex] as AssertionResult[];
      if (assertion.kind === "jsonata") {
        row[assertionIndex] = await (expressions.get(assertion.name) as CompiledExpression).evaluate(view);
      } else if (assertion.kind === "outcome") row[assertionIndex] = scoreOutcome(view, assertion.status);
      else if (assertion.kind === "status") row[assertionIndex] = scoreStatus(view, assertion.status);
      else slow.push({ view: viewIndex, assertion: assertionIndex });
    }
  }
  if (options.afterInterrupt === true && options.signal?.aborted === true) {
    for (const job of slow)
      (results[job.view] as AssertionResult[])[job.assertion] = errored("not scored: interrupted before it ran");
  } else
    await mapConcurrently(
      slow,
      options.concurrency ?? DEFAULT_SCORING_CONCURRENCY,
      async (job) => {
        const view = views[job.view] as EvalThreadView;
        const assertion = assertions[job.assertion] as EvalAssertion;
        (results[job.view] as AssertionResult[])[job.assertion] = await scoreSlow(view, assertion, options, judges);
      },
      options.signal,
    );

  return views.map((view, viewIndex) =>
    toSample(view, assertions, results[viewIndex] as AssertionResult[], options.sampleErrors?.get(view.thread) ?? null),
  );
}

async function scoreSlow(
  view: EvalThreadView,
  assertion: EvalAssertion,
  options: ScoreThreadsOptions,
  judges: ReadonlyMap<string, PreparedJudge>,
): Promise<AssertionResult> {
  try {
    if (assertion.kind === "command") {
      return await scoreCommand(view, {
        name: assertion.name,
        command: assertion.command,
        cwd: scorerCwd(options.cwd, assertion.cwd),
        timeoutSeconds: assertion.timeoutSeconds ?? DEFAULT_COMMAND_TIMEOUT_SECONDS,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    }
    if (assertion.kind === "judge") {
      return await scoreJudge(view, judges.get(assertion.name) as PreparedJudge, options.judge as JudgeContext);
    }
  } catch (error) {
    // An interrupt stops the whole scoring; anything else errs this one score.
    if (options.signal?.aborted === true) throw error;
    return errored(error instanceof Error ? error.message : String(error));
  }
  return errored(`unknown assertion kind ${(assertion as { kind: string }).kind}`);
}

/** A sample from a view and its scores (see EvalSample). */
export function toSample(
  view: EvalThreadView,
  assertions: readonly EvalAssertion[],
  results: readonly AssertionResult[],
  error: string | null = null,
): EvalSample {
  const scores: EvalScore[] = assertions.map((assertion, index) => ({
    assertion: assertion.name,
    ...(results[index] as AssertionResult),
  }));
  let weighted = 0;
  let weights = 0;
  for (const [index, score] of scores.entries()) {
    if (score.score === null) continue;
    const weight = (assertions[index] as EvalAssertion).weight ?? 1;
    weighted += weight * score.score;
    weights += weight;
  }
  const verdict =
    error !== null || scores.some((score) => score.verdict === "errored")
      ? "errored"
      : scores.every((score) => score.verdict === "passed")
        ? "passed"
        : "failed";
  return {
    thread: view.thread,
    head: view.head,
    case: view.eval.case,
    variant: view.eval.variant,
    repeat: view.eval.repeat,
    workflow: view.workflow,
    status: view.status,
    outcome: view.outcome ?? null,
    path: view.steps.map((step) => step.role),
    steps: view.totals.steps,
    tokens: view.totals.tokens,
    costUsd: view.totals.costUsd,
    durationMs: view.totals.durationMs,
    final: view.final,
    scores,
    verdict,
    score: weights > 0 ? Math.min(1, Math.max(0, weighted / weights)) : null,
    error,
  };
}
