import { describe, expect, it } from "bun:test";
import { type EvalSample, evalComparisonSchema, UwfError } from "@uwf/protocol";
import { buildRepeats, buildSample, buildScore } from "../../test/build-sample.ts";
import { VariantNotFoundError } from "../errors/variant-not-found-error.ts";
import { summarizeSamples } from "../summary/summarize-samples.ts";
import { compareReports, compareSummaries, compareVariants, comparisonSide } from "./compare-summaries.ts";

const OK = [{ name: "ok" }];

function withCost(samples: EvalSample[], costUsd: number, steps: number): EvalSample[] {
  return samples.map((sample) => ({ ...sample, costUsd, steps }));
}

/** v1: login 5/5, redirect 5/5. v2: login 5/5 (cheaper), redirect 3/5. */
const SUITE = summarizeSamples(
  [
    ...withCost(buildRepeats(5, 5, { case: "login", variant: "v1" }), 0.02, 4),
    ...withCost(buildRepeats(5, 5, { case: "redirect", variant: "v1" }), 0.02, 4),
    ...withCost(buildRepeats(5, 5, { case: "login", variant: "v2" }), 0.01, 3),
    ...withCost(buildRepeats(5, 3, { case: "redirect", variant: "v2" }), 0.01, 3),
  ],
  OK,
);

describe("compareVariants", () => {
  it("compares every other variant with the baseline, naming the regressed case", () => {
    const [comparison, ...rest] = compareVariants(SUITE, "v1", { report: "R1" });
    expect(rest).toEqual([]);
    expect(evalComparisonSchema.parse(comparison)).toEqual(comparison as never);
    expect(comparison?.baseline).toEqual({ report: "R1", variant: "v1" });
    expect(comparison?.current).toEqual({ report: "R1", variant: "v2" });
    expect(comparison?.regressed).toEqual([{ case: "redirect", variant: "v2", baseline: 1, current: 0.6 }]);
    expect(comparison?.improved).toEqual([]);
  });

  it("gives each metric both values and the delta, current minus baseline", () => {
    const [comparison] = compareVariants(SUITE, "v1");
    const metric = (name: string) => comparison?.metrics.find((entry) => entry.metric === name);
    expect(comparison?.metrics.map((entry) => entry.metric)).toEqual([
      "passRate",
      "meanScore",
      "assertion:ok",
      "steps.p50",
      "steps.p90",
      "tokens.p50",
      "tokens.p90",
      "costUsd.p50",
      "costUsd.p90",
      "durationMs.p50",
      "durationMs.p90",
      "errored",
    ]);
    expect(metric("passRate")?.baseline).toBe(1);
    expect(metric("passRate")?.current).toBe(0.8);
    expect(metric("passRate")?.delta).toBeCloseTo(-0.2, 12);
    expect(metric("steps.p50")).toEqual({ metric: "steps.p50", baseline: 4, current: 3, delta: -1 });
    expect(metric("costUsd.p90")?.delta).toBeCloseTo(-0.01, 12);
    expect(metric("errored")).toEqual({ metric: "errored", baseline: 0, current: 0, delta: 0 });
  });

  it("lists a case that improved, the largest change first", () => {
    const comparisons = compareVariants(SUITE, "v2");
    expect(comparisons[0]?.improved).toEqual([{ case: "redirect", variant: "v1", baseline: 0.6, current: 1 }]);
    expect(comparisons[0]?.regressed).toEqual([]);
  });

  it("refuses a variant the report does not have, listing those it has", () => {
    let thrown: unknown;
    try {
      compareVariants(SUITE, "v3");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(VariantNotFoundError);
    expect(UwfError.isInstance(thrown) && thrown.code).toBe("usage");
    expect((thrown as Error).message).toBe('no variant "v3" in the report; its variants: "v1", "v2"');
    expect((thrown as VariantNotFoundError).data).toEqual({ variant: "v3", variants: ["v1", "v2"] });
  });
});

describe("compareSummaries", () => {
  it("leaves out of the metrics' deltas what one side lacks", () => {
    const baseline = summarizeSamples(buildRepeats(2, 2), [{ name: "ok" }]);
    const current = summarizeSamples(
      [buildSample({ scores: [buildScore("ok", "passed"), buildScore("judge", 0.7)] })],
      [{ name: "ok" }, { name: "judge" }],
    );
    const comparison = compareSummaries(comparisonSide(baseline), comparisonSide(current), {
      baseline: { report: "A", variant: null },
      current: { report: "B", variant: null },
    });
    expect(comparison.metrics.find((entry) => entry.metric === "assertion:judge")).toEqual({
      metric: "assertion:judge",
      baseline: null,
      current: 0.7,
      delta: null,
    });
  });

  it("does not call a case on one side only regressed or improved", () => {
    const baseline = summarizeSamples(buildRepeats(2, 2, { case: "a" }), OK);
    const current = summarizeSamples(buildRepeats(2, 0, { case: "b" }), OK);
    const comparison = compareSummaries(comparisonSide(baseline), comparisonSide(current), {
      baseline: { report: "A", variant: null },
      current: { report: "B", variant: null },
    });
    expect([comparison.regressed, comparison.improved]).toEqual([[], []]);
  });
});

describe("compareReports", () => {
  it("compares two reports whole and then per variant they share, matching cases by variant", () => {
    const later = summarizeSamples(
      [
        ...buildRepeats(5, 2, { case: "login", variant: "v1" }),
        ...buildRepeats(5, 5, { case: "redirect", variant: "v1" }),
        ...buildRepeats(5, 5, { case: "login", variant: "v2" }),
        ...buildRepeats(5, 5, { case: "redirect", variant: "v2" }),
      ],
      OK,
    );
    const comparisons = compareReports({ report: "R1", summary: SUITE }, { report: "R2", summary: later });
    expect(comparisons.map((entry) => [entry.baseline, entry.current])).toEqual([
      [
        { report: "R1", variant: null },
        { report: "R2", variant: null },
      ],
      [
        { report: "R1", variant: "v1" },
        { report: "R2", variant: "v1" },
      ],
      [
        { report: "R1", variant: "v2" },
        { report: "R2", variant: "v2" },
      ],
    ]);
    expect(comparisons[0]?.regressed).toEqual([{ case: "login", variant: "v1", baseline: 1, current: 0.4 }]);
    expect(comparisons[0]?.improved).toEqual([{ case: "redirect", variant: "v2", baseline: 0.6, current: 1 }]);
    expect(comparisons[1]?.regressed.map((entry) => entry.case)).toEqual(["login"]);
    expect(comparisons[2]?.improved.map((entry) => entry.case)).toEqual(["redirect"]);
  });

  it("pools a case across variants when the reports' variants differ", () => {
    const other = summarizeSamples(
      [
        ...buildRepeats(4, 1, { case: "redirect", variant: "fast" }),
        ...buildRepeats(4, 4, { case: "login", variant: "fast" }),
      ],
      OK,
    );
    const [whole, ...perVariant] = compareReports({ report: "R1", summary: SUITE }, { report: "R3", summary: other });
    expect(perVariant).toEqual([]);
    // redirect: 8 of 10 in R1 (v1 and v2 together), 1 of 4 in R3.
    expect(whole?.regressed).toEqual([{ case: "redirect", variant: null, baseline: 0.8, current: 0.25 }]);
  });

  it("compares reports of one variant once, whole", () => {
    const first = summarizeSamples(buildRepeats(4, 4), OK);
    const second = summarizeSamples(buildRepeats(4, 2), OK);
    const comparisons = compareReports({ report: "A", summary: first }, { report: "B", summary: second });
    expect(comparisons).toHaveLength(1);
    expect(comparisons[0]?.metrics[0]).toEqual({ metric: "passRate", baseline: 1, current: 0.5, delta: -0.5 });
    // Samples without cases have no case to regress: the pass rate says it.
    expect(comparisons[0]?.regressed).toEqual([]);
  });
});
