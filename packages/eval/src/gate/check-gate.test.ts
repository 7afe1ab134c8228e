import { describe, expect, it } from "bun:test";
import { type EvalGate, type EvalSample, evalGateCheckSchema } from "@uwf/protocol";
import { buildRepeats, buildSample, buildScore } from "../../test/build-sample.ts";
import { summarizeSamples } from "../summary/summarize-samples.ts";
import { checkGate } from "./check-gate.ts";

function gateOf(samples: EvalSample[], gate: EvalGate | null) {
  const result = checkGate(
    summarizeSamples(samples, [{ name: "ok" }], { allowErrors: gate?.allowErrors }),
    samples,
    gate,
  );
  for (const check of result.checks) evalGateCheckSchema.parse(check);
  return result;
}

function check(samples: EvalSample[], gate: EvalGate, name: string) {
  const found = gateOf(samples, gate).checks.find((entry) => entry.check === name);
  if (found === undefined) throw new Error(`no ${name} check`);
  return found;
}

/** Two variants × two cases × 5 repeats: v2's "redirect" passes 3 of 5, the rest all pass. */
const SUITE = [
  ...buildRepeats(5, 5, { case: "login", variant: "v1" }),
  ...buildRepeats(5, 5, { case: "redirect", variant: "v1" }),
  ...buildRepeats(5, 5, { case: "login", variant: "v2" }),
  ...buildRepeats(5, 3, { case: "redirect", variant: "v2" }),
];

describe("checkGate", () => {
  it("has no verdict without a gate, but still checks for errors", () => {
    expect(gateOf(SUITE, null)).toEqual({
      held: null,
      checks: [{ check: "errors", held: true, detail: "no sample errored" }],
    });
  });

  it("holds min-pass-rate at the rate, and fails it below", () => {
    // 18 of 20 passed: 0.90.
    expect(check(SUITE, { minPassRate: 0.9 }, "min-pass-rate")).toEqual({
      check: "min-pass-rate",
      held: true,
      detail: "pass rate 0.90 (18 of 20 passed), at least 0.90",
    });
    const failed = gateOf(SUITE, { minPassRate: 0.95 });
    expect(failed.held).toBe(false);
    expect(failed.checks[0]).toEqual({
      check: "min-pass-rate",
      held: false,
      detail: "pass rate 0.90 (18 of 20 passed), below 0.95",
    });
  });

  it("fails min-pass-rate when nothing could be judged", () => {
    const samples = [buildSample({ scores: [buildScore("ok", "errored")] })];
    expect(check(samples, { minPassRate: 0.5 }, "min-pass-rate")).toMatchObject({
      held: false,
      detail: "no pass rate to hold to 0.50: all 1 samples errored",
    });
  });

  it("holds 4 of 5 at 0.8 exactly", () => {
    expect(check(buildRepeats(5, 4), { minPassRate: 0.8 }, "min-pass-rate").held).toBe(true);
  });

  it("fails min-case-pass-rate naming the worst case of its variant", () => {
    const samples = [...SUITE, ...buildRepeats(5, 4, { case: "logout", variant: "v2" })];
    expect(check(samples, { minCasePassRate: 0.8 }, "min-case-pass-rate")).toEqual({
      check: "min-case-pass-rate",
      held: false,
      detail: 'case "redirect" of variant "v2": 3 of 5 repeats passed (0.60), below 0.80',
    });
    expect(check(samples, { minCasePassRate: 0.9 }, "min-case-pass-rate").detail).toBe(
      'case "redirect" of variant "v2": 3 of 5 repeats passed (0.60), below 0.90; 1 more below it',
    );
  });

  it("holds min-case-pass-rate when every case reaches it, naming the lowest", () => {
    expect(check(SUITE, { minCasePassRate: 0.6 }, "min-case-pass-rate")).toEqual({
      check: "min-case-pass-rate",
      held: true,
      detail: 'every case at least 0.60; the lowest, case "redirect" of variant "v2": 3 of 5 repeats passed (0.60)',
    });
  });

  it("checks every variant with min-case-pass-rate when the samples name no cases", () => {
    const samples = [...buildRepeats(4, 4, { variant: "a" }), ...buildRepeats(4, 1, { variant: "b" })];
    expect(check(samples, { minCasePassRate: 0.5 }, "min-case-pass-rate")).toMatchObject({
      held: false,
      detail: 'variant "b": 1 of 4 samples passed (0.25), below 0.50',
    });
  });

  it("holds pass-k when every case passed all of its first K repeats, by repeat number", () => {
    // v2's redirect passed repeats 0-2 and failed 3-4; shuffled, its first three by number still all passed.
    const shuffled = [...SUITE].reverse();
    expect(check(shuffled, { passK: 3 }, "pass-k")).toEqual({
      check: "pass-k",
      held: true,
      detail: "every case passed all of its first 3 repeats",
    });
  });

  it("fails pass-k naming the case and the repeat that missed", () => {
    expect(check(SUITE, { passK: 4 }, "pass-k")).toEqual({
      check: "pass-k",
      held: false,
      detail: 'case "redirect" of variant "v2": 3 of its first 4 repeats passed (repeat 3 failed)',
    });
  });

  it("fails pass-k for a case with fewer than K repeats, saying so", () => {
    const samples = [...buildRepeats(3, 3, { case: "a" }), ...buildRepeats(2, 2, { case: "b" })];
    expect(check(samples, { passK: 3 }, "pass-k")).toEqual({
      check: "pass-k",
      held: false,
      detail: 'case "b" has 2 repeats, fewer than 3',
    });
  });

  it("counts an errored repeat as not passing pass-k", () => {
    const samples = buildRepeats(3, 3, { case: "a" });
    samples[1] = { ...(samples[1] as EvalSample), verdict: "errored", error: "the run did not start" };
    expect(check(samples, { passK: 2, allowErrors: true }, "pass-k").detail).toBe(
      'case "a": 1 of its first 2 repeats passed (repeat 1 errored)',
    );
  });

  it("fails the errors check on an errored sample, naming its thread and why", () => {
    const errored = buildSample({ scores: [buildScore("judge", "errored", "the judge thread failed")] });
    const result = gateOf([...buildRepeats(3, 3), errored, buildSample({ verdict: "errored", error: "no agent" })], {
      minPassRate: 0.5,
    });
    expect(result.held).toBe(false);
    expect(result.checks.map((entry) => [entry.check, entry.held])).toEqual([
      ["min-pass-rate", true],
      ["errors", false],
    ]);
    expect(result.checks[1]?.detail).toBe(
      `2 samples errored: thread ${errored.thread}: assertion "judge" errored: the judge thread failed; 1 more`,
    );
  });

  it("holds the errors check with allowErrors, counting errored samples as failed", () => {
    const samples = [...buildRepeats(3, 3), buildSample({ scores: [buildScore("ok", "errored")] })];
    const result = gateOf(samples, { minPassRate: 0.8, allowErrors: true });
    expect(result.checks).toEqual([
      { check: "min-pass-rate", held: false, detail: "pass rate 0.75 (3 of 4 passed), below 0.80" },
      { check: "errors", held: true, detail: "1 sample errored, counted as failed (errors allowed)" },
    ]);
    expect(result.held).toBe(false);
  });

  it("holds a gate of every check together", () => {
    const result = gateOf(SUITE, { minPassRate: 0.8, minCasePassRate: 0.6, passK: 3 });
    expect(result.held).toBe(true);
    expect(result.checks.map((entry) => entry.check)).toEqual([
      "min-pass-rate",
      "min-case-pass-rate",
      "pass-k",
      "errors",
    ]);
  });

  it("does not hold a gate on no samples", () => {
    const result = gateOf([], { minPassRate: 0.5, minCasePassRate: 0.5, passK: 1 });
    expect(result.held).toBe(false);
    expect(result.checks.filter((entry) => !entry.held).map((entry) => entry.check)).toEqual([
      "min-pass-rate",
      "min-case-pass-rate",
      "pass-k",
    ]);
  });
});
