import { describe, expect, it } from "bun:test";
import * as entry from "./index.ts";

describe("the @uwf/eval entry", () => {
  it("exports exactly the public names, so the surface changes on purpose", () => {
    expect(Object.keys(entry).sort()).toEqual([
      "DEFAULT_COMMAND_TIMEOUT_SECONDS",
      "DEFAULT_EXPRESSION_TIMEOUT_MS",
      "DEFAULT_JUDGE_PROMPT",
      "DEFAULT_SCORING_CONCURRENCY",
      "InvalidAssertionError",
      "JUDGE_BODY_QUOTA",
      "assertionsNeedBodies",
      "checkUniqueAssertionNames",
      "compileAssertionExpression",
      "compileExpression",
      "loadThreadViews",
      "mapConcurrently",
      "normalizeSuiteAssertion",
      "parseAssertionArgument",
      "parseAssertionArguments",
      "parseScorerReply",
      "prepareJudge",
      "renderJudgeTranscript",
      "scoreCommand",
      "scoreJudge",
      "scoreOutcome",
      "scoreStatus",
      "scoreThreads",
      "toSample",
    ]);
  });
});
