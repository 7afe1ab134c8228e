import { describe, expect, it } from "bun:test";
import { evalSummarySchema } from "@uwf/protocol";
import { buildRepeats, buildSample, buildScore } from "../../test/build-sample.ts";
import { summarizeSamples } from "./summarize-samples.ts";

const OK = [{ name: "ok" }];

describe("summarizeSamples", () => {
  it("counts samples and gives the pass rate with its Wilson interval", () => {
    const summary = summarizeSamples(buildRepeats(10, 8), OK);
    expect(evalSummarySchema.parse(summary)).toEqual(summary);
    expect(summary.overall).toMatchObject({ samples: 10, passed: 8, failed: 2, errored: 0, passRate: 0.8 });
    expect(summary.overall.interval?.low).toBeCloseTo(0.4902, 4);
    expect(summary.overall.interval?.high).toBeCloseTo(0.9433, 4);
  });

  it("leaves errored samples out of the pass rate, or counts them as failed with allowErrors", () => {
    const samples = [
      ...buildRepeats(4, 3, { case: "login" }),
      buildSample({ case: "login", scores: [buildScore("ok", "errored")] }),
    ];
    const strict = summarizeSamples(samples, OK);
    expect(strict.overall).toMatchObject({ samples: 5, passed: 3, failed: 1, errored: 1, passRate: 0.75 });
    expect(strict.allowErrors).toBe(false);
    const lenient = summarizeSamples(samples, OK, { allowErrors: true });
    expect(lenient.overall).toMatchObject({ samples: 5, passed: 3, failed: 1, errored: 1, passRate: 0.6 });
    expect(lenient.allowErrors).toBe(true);
    // pass@k counts over the same n: 4 without allowErrors, 5 with it.
    expect(strict.variants[0]?.cases[0]?.passAtK).toHaveLength(4);
    expect(lenient.variants[0]?.cases[0]?.passAtK).toHaveLength(5);
  });

  it("has no pass rate when every sample errored", () => {
    const summary = summarizeSamples([buildSample({ scores: [buildScore("ok", "errored")] })], OK);
    expect(summary.overall).toMatchObject({ errored: 1, passRate: null, interval: null, meanScore: null });
    expect(summary.overall.assertions).toEqual([{ name: "ok", mean: null, passed: 0, failed: 0, errored: 1 }]);
  });

  it("groups by variant, then case, in the order samples first name them", () => {
    const samples = [
      ...buildRepeats(2, 1, { case: "redirect", variant: "v2" }),
      ...buildRepeats(2, 2, { case: "login", variant: "v1" }),
      ...buildRepeats(2, 0, { case: "redirect", variant: "v1" }),
      ...buildRepeats(2, 2, { case: "login", variant: "v2" }),
    ];
    const summary = summarizeSamples(samples, OK);
    expect(summary.variants.map((variant) => variant.variant)).toEqual(["v2", "v1"]);
    expect(summary.variants.map((variant) => variant.cases.map((entry) => entry.case))).toEqual([
      ["redirect", "login"],
      ["login", "redirect"],
    ]);
    expect(summary.variants.map((variant) => variant.passRate)).toEqual([0.75, 0.5]);
    expect(summary.variants[1]?.cases.map((entry) => entry.passRate)).toEqual([1, 0]);
  });

  it("puts samples without variant or case in one variant null with one case null", () => {
    const summary = summarizeSamples(buildRepeats(3, 2), OK);
    expect(summary.variants).toHaveLength(1);
    expect(summary.variants[0]?.variant).toBeNull();
    expect(summary.variants[0]?.cases.map((entry) => [entry.case, entry.samples])).toEqual([[null, 3]]);
  });

  it("gives pass@k and pass^k per case with repeats, none for a case of one sample", () => {
    const summary = summarizeSamples([...buildRepeats(5, 3, { case: "a" }), ...buildRepeats(1, 1, { case: "b" })], OK);
    const [caseA, caseB] = summary.variants[0]?.cases ?? [];
    expect(caseA?.passAtK.map((entry) => entry.k)).toEqual([1, 2, 3, 4, 5]);
    expect(caseA?.passAtK[1]?.passAtK).toBeCloseTo(0.9, 12);
    expect(caseA?.passAtK[1]?.passHatK).toBeCloseTo(0.3, 12);
    expect(caseA?.passAtK[4]).toEqual({ k: 5, passAtK: 1, passHatK: 0 });
    expect(caseB?.passAtK).toEqual([]);
  });

  it("means each assertion's score where it did not err, in the order given", () => {
    const samples = [
      buildSample({ scores: [buildScore("judge", 0.9), buildScore("approved", "passed")] }),
      buildSample({ scores: [buildScore("judge", 0.4), buildScore("approved", "failed")] }),
      buildSample({ scores: [buildScore("judge", "errored"), buildScore("approved", "passed")] }),
    ];
    const summary = summarizeSamples(samples, [{ name: "approved" }, { name: "judge" }, { name: "unused" }]);
    expect(summary.overall.assertions).toEqual([
      { name: "approved", mean: expect.any(Number), passed: 2, failed: 1, errored: 0 },
      { name: "judge", mean: expect.any(Number), passed: 1, failed: 1, errored: 1 },
      { name: "unused", mean: null, passed: 0, failed: 0, errored: 0 },
    ]);
    expect(summary.overall.assertions[0]?.mean).toBeCloseTo(2 / 3, 12);
    expect(summary.overall.assertions[1]?.mean).toBeCloseTo(0.65, 12);
    // Sample scores 0.95, 0.2 and 1 (the errored judge left out of the third).
    expect(summary.overall.meanScore).toBeCloseTo((0.95 + 0.2 + 1) / 3, 12);
  });

  it("counts outcomes by status, final $status and ending role, most frequent first", () => {
    const rejected = { role: "reviewer", status: "rejected", edge: { index: 1, condition: null, key: "rejected" } };
    const samples = [
      buildSample({ outcome: rejected }),
      buildSample(),
      buildSample({ status: "failed", outcome: null }),
      buildSample({ outcome: rejected }),
    ];
    expect(summarizeSamples(samples, OK).overall.outcomes).toEqual([
      { status: "ended", outcome: "rejected", role: "reviewer", count: 2 },
      { status: "ended", outcome: "approved", role: "reviewer", count: 1 },
      { status: "failed", outcome: null, role: null, count: 1 },
    ]);
  });

  it("lists the five most frequent role paths, ties by their text", () => {
    const paths = [["a"], ["b"], ["b"], ["c"], ["d"], ["e"], ["f"], ["a", "b"], ["a", "b"]];
    const summary = summarizeSamples(
      paths.map((path) => buildSample({ path })),
      OK,
    );
    expect(summary.overall.paths).toEqual([
      { path: ["a", "b"], count: 2 },
      { path: ["b"], count: 2 },
      { path: ["a"], count: 1 },
      { path: ["c"], count: 1 },
      { path: ["d"], count: 1 },
    ]);
  });

  it("sums up steps, tokens, cost and duration with nearest-rank percentiles", () => {
    const samples = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((steps) =>
      buildSample({ steps, tokens: steps * 100, costUsd: steps / 100, durationMs: steps * 1000 }),
    );
    const { overall } = summarizeSamples(samples, OK);
    expect(overall.steps).toEqual({ p50: 5, p90: 9, max: 10, mean: 5.5, total: 55 });
    expect(overall.tokens).toEqual({ p50: 500, p90: 900, max: 1000, mean: 550, total: 5500 });
    expect(overall.costUsd.p90).toBe(0.09);
    expect(overall.costUsd.total).toBeCloseTo(0.55, 12);
    expect(overall.durationMs).toEqual({ p50: 5000, p90: 9000, max: 10000, mean: 5500, total: 55000 });
  });

  it("sums up final fields: numeric when every value is a number, else the top 10 values and the rest", () => {
    const finals = [
      ...Array.from({ length: 12 }, (_, index) => ({ confidence: index / 10, label: `l${index}`, ok: index < 8 })),
      { confidence: 0.5, label: "l0" },
      { mixed: 1 },
      { mixed: "one" },
    ];
    const { overall } = summarizeSamples(
      finals.map((final) => buildSample({ final })),
      OK,
    );
    expect(overall.fields.map((field) => field.field)).toEqual(["confidence", "label", "mixed", "ok"]);
    expect(overall.fields[0]).toMatchObject({ kind: "numeric", count: 13, min: 0, max: 1.1 });
    const label = overall.fields[1];
    expect(label?.kind).toBe("categorical");
    if (label?.kind !== "categorical") return;
    expect(label.values[0]).toEqual({ value: '"l0"', count: 2 });
    expect(label.values).toHaveLength(10);
    expect(label.other).toBe(2);
    // Every value of these two is listed (nothing other), each as its JSON with its count, most first.
    const listed = (field: string, ...counts: [value: string, count: number][]) => ({
      field,
      kind: "categorical" as const,
      values: counts.map(([value, count]) => ({ value, count })),
      other: 0,
    });
    expect(overall.fields.slice(2)).toEqual([
      listed("mixed", ["1", 1], ['"one"', 1]),
      listed("ok", ["true", 8], ["false", 4]),
    ]);
  });

  it("gives the same summary for the same samples", () => {
    const samples = [
      ...buildRepeats(3, 1, { case: "a", variant: "x" }),
      ...buildRepeats(3, 2, { case: "b", variant: "y" }),
    ];
    expect(JSON.stringify(summarizeSamples(samples, OK))).toBe(JSON.stringify(summarizeSamples(samples, OK)));
  });

  it("summarizes no samples as empty", () => {
    const summary = summarizeSamples([], OK);
    expect(summary.overall).toMatchObject({
      samples: 0,
      passRate: null,
      interval: null,
      outcomes: [],
      paths: [],
      fields: [],
    });
    expect(summary.variants).toEqual([]);
    expect(evalSummarySchema.parse(summary)).toEqual(summary);
  });
});
