// The @uwf/eval entry: scoring threads, suites, reports and their rendering (see README.md). Above
// @uwf/engine, below @uwf/cli; it prints nothing and exits nothing.

export {
  checkUniqueAssertionNames,
  compileAssertionExpression,
  normalizeSuiteAssertion,
  parseAssertionArgument,
  parseAssertionArguments,
} from "./assertions/parse-assertion.ts";
export { mapConcurrently } from "./concurrency/map-concurrently.ts";
export { type InvalidAssertionDetails, InvalidAssertionError } from "./errors/index.ts";
export type { AssertionResult } from "./score/assertion-result.ts";
export { JUDGE_BODY_QUOTA, renderJudgeTranscript } from "./score/render-judge-transcript.ts";
export {
  DEFAULT_COMMAND_TIMEOUT_SECONDS,
  parseScorerReply,
  type ScoreCommandOptions,
  scoreCommand,
} from "./score/score-command.ts";
export { type CompiledExpression, compileExpression, DEFAULT_EXPRESSION_TIMEOUT_MS } from "./score/score-jsonata.ts";
export {
  DEFAULT_JUDGE_PROMPT,
  type JudgeContext,
  type PreparedJudge,
  prepareJudge,
  scoreJudge,
} from "./score/score-judge.ts";
export { scoreOutcome, scoreStatus } from "./score/score-outcome.ts";
export {
  assertionsNeedBodies,
  DEFAULT_SCORING_CONCURRENCY,
  type ScoreThreadsOptions,
  scoreThreads,
  toSample,
} from "./score/score-threads.ts";
export { type LoadThreadViewsOptions, loadThreadViews, type ThreadViewTarget } from "./view/load-thread-view.ts";
