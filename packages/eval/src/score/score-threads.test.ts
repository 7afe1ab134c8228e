import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { type EvalAssertion, type EvalThreadView, evalSampleSchema, type ThreadRecord } from "@uwf/protocol";
import { createEvalTestKit, type EvalTestKit } from "../../test/eval-test-kit.ts";
import { parseAssertionArguments } from "../assertions/parse-assertion.ts";
import { loadThreadViews } from "../view/load-thread-view.ts";
import { assertionsNeedBodies, scoreThreads } from "./score-threads.ts";

let kit: EvalTestKit;
let approved: ThreadRecord;
let rejected: ThreadRecord;
let suspended: ThreadRecord;
let views: EvalThreadView[];

beforeAll(async () => {
  kit = createEvalTestKit();
  approved = await kit.runThread([
    { role: "worker", output: { $status: "again", summary: "first" }, body: "Once." },
    { role: "worker", output: { $status: "approved", summary: "second", confidence: 0.8 }, body: "Twice." },
  ]);
  rejected = await kit.runThread([{ role: "worker", output: { $status: "rejected", summary: "no", confidence: 0.2 } }]);
  suspended = await kit.runThread([{ role: "worker", output: { $status: "$SUSPEND", reason: "Which PR?" } }]);
  views = await loadThreadViews(kit.store, [approved, rejected, suspended], { bodies: false });
});
afterAll(() => kit.cleanup());

function scoresOf(assertions: EvalAssertion[]) {
  return scoreThreads({ views, assertions, cwd: process.cwd() });
}

describe("scoreThreads", () => {
  it("fills every field of a sample from the view", async () => {
    const [sample] = await scoresOf(parseAssertionArguments(["ok=outcome: approved"]));
    const view = views[0] as EvalThreadView;
    expect(evalSampleSchema.parse(sample)).toEqual(sample as never);
    expect(sample).toEqual({
      thread: approved.id,
      head: approved.head,
      case: null,
      variant: null,
      repeat: null,
      workflow: "review",
      status: "ended",
      outcome: approved.outcome ?? null,
      path: ["worker", "worker"],
      steps: 2,
      tokens: view.totals.tokens,
      costUsd: view.totals.costUsd,
      durationMs: view.totals.durationMs,
      final: { $status: "approved", summary: "second", confidence: 0.8 },
      scores: [{ assertion: "ok", verdict: "passed", score: 1, reason: null, error: null, judge: null }],
      verdict: "passed",
      score: 1,
      error: null,
    });
  });

  it("checks outcome and status shorthands; a thread that did not end fails outcome: with why", async () => {
    const samples = await scoresOf(parseAssertionArguments(["outcome: approved", "status: ended"]));
    expect(samples.map((sample) => sample.scores.map((score) => score.verdict))).toEqual([
      ["passed", "passed"],
      ["failed", "passed"],
      ["failed", "failed"],
    ]);
    expect(samples[1]?.scores[0]?.reason).toBe("ended with $status rejected");
    expect(samples[2]?.scores[0]?.reason).toBe("not ended (status suspended)");
    expect(samples[2]?.scores[1]?.reason).toBe("status suspended");
    expect(samples[1]?.scores[1]?.reason).toBeNull();
    expect(samples.map((sample) => sample.verdict)).toEqual(["passed", "failed", "failed"]);
  });

  it("evaluates JSONata over the view: truthy passes, a number in [0, 1] is a score, others err", async () => {
    const samples = await scoresOf(
      parseAssertionArguments([
        'approved=outcome.status = "approved"',
        "confidence=final.confidence",
        'twice=$count("worker") = 2',
        "short=totals.steps <= 1",
        "big=totals.steps * 10",
        "thrown=$error('no')",
      ]),
    );
    const verdicts = samples.map((sample) => sample.scores.map((score) => [score.verdict, score.score]));
    expect(verdicts[0]).toEqual([
      ["passed", 1],
      ["passed", 0.8],
      ["passed", 1],
      ["failed", 0],
      ["errored", null],
      ["errored", null],
    ]);
    expect(verdicts[1]?.slice(0, 4)).toEqual([
      ["failed", 0],
      ["failed", 0.2],
      ["failed", 0],
      ["passed", 1],
    ]);
    // A missing field is undefined: falsy, so it fails rather than errs.
    expect(samples[2]?.scores[1]).toMatchObject({ verdict: "failed", score: 0 });
    expect(samples[0]?.scores[4]?.error).toBe("the expression gave 20: a number must be a score in [0, 1]");
    expect(samples[0]?.scores[5]?.error).toContain("the expression failed: no");
    expect(samples.map((sample) => sample.verdict)).toEqual(["errored", "errored", "errored"]);
    // The erred scores are left out of the mean: (1 + 0.8 + 1 + 0) / 4.
    expect(samples[0]?.score).toBeCloseTo(0.7);
  });

  it("stops an expression that runs past its time limit", async () => {
    const [sample] = await scoreThreads({
      views: views.slice(0, 1),
      assertions: parseAssertionArguments(["loop=($f := function($n) { $f($n) }; $f(1))"]),
      cwd: process.cwd(),
      expressionTimeoutMs: 200,
    });
    expect(sample?.scores[0]).toMatchObject({ verdict: "errored", error: "the expression ran past 200 ms" });
  });

  it("weighs the sample's score and marks a sample errored when its run failed", async () => {
    const samples = await scoreThreads({
      views,
      assertions: parseAssertionArguments(["ok*3=outcome: approved", "done=status: ended"]),
      cwd: process.cwd(),
      sampleErrors: new Map([[suspended.id, "the run could not start"]]),
    });
    // (3 × 0 + 1 × 1) / 4 for the rejected thread.
    expect(samples.map((sample) => sample.score)).toEqual([1, 0.25, 0]);
    expect(samples[2]).toMatchObject({ verdict: "errored", error: "the run could not start" });
  });

  it("refuses duplicate names before scoring", async () => {
    const twice = [...parseAssertionArguments(["a=final.ok"]), ...parseAssertionArguments(["a=final.no"])];
    await expect(scoresOf(twice)).rejects.toThrow('assertion "a": two assertions have this name');
  });

  it("says which assertions need step bodies", () => {
    expect(assertionsNeedBodies(parseAssertionArguments(["a=final.ok", "outcome: ok"]))).toBe(false);
    expect(assertionsNeedBodies(parseAssertionArguments(["command: true"]))).toBe(true);
    expect(assertionsNeedBodies(parseAssertionArguments(["judge: judge.yaml"]))).toBe(true);
  });
});
