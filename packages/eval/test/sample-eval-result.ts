// A report built by hand from the protocol's schemas, for the renderers' tests: 2 variants × 2 cases × 5
// repeats, with failed and errored samples, a gate that did not hold and a comparison naming a regressed case.
import {
  type EvalGroupSummary,
  type EvalResult,
  type EvalSample,
  evalResultSchema,
  evalSampleSchema,
} from "@uwf/protocol";

export interface SampleEvalResultOptions {
  /** The first case's name (the second is `redirect`): a test puts hostile text here. */
  firstCase?: string;
  /** Text put into reasons, errors, final fields and the report's name. */
  text?: string;
}

const threadId = (index: number) => `01JEVXA${String(index).padStart(19, "0")}`;
const address = (index: number) => `A${String(index).padStart(12, "0")}`;

/** Which repeats fail (f) or err (e), per variant and case: `p` passes. */
const PLAN: Record<string, Record<"first" | "second", string>> = {
  baseline: { first: "ppppp", second: "ppppf" },
  candidate: { first: "pppfe", second: "ppffe" },
};

function buildSample(
  index: number,
  caseName: string,
  variant: string,
  repeat: number,
  mark: string,
  text: string,
): EvalSample {
  const verdict = mark === "p" ? "passed" : mark === "f" ? "failed" : "errored";
  const ended = verdict !== "errored" || repeat % 2 === 0;
  return evalSampleSchema.parse({
    thread: threadId(index),
    head: address(index),
    case: caseName,
    variant,
    repeat,
    workflow: "review",
    status: ended ? "ended" : "failed",
    outcome: ended
      ? {
          role: "reviewer",
          status: verdict === "passed" ? "approved" : "rejected",
          edge: { index: 0, condition: null, key: verdict === "passed" ? "approved" : "rejected" },
        }
      : null,
    path: verdict === "passed" ? ["author", "reviewer"] : ["author", "reviewer", "author", "reviewer"],
    steps: verdict === "passed" ? 2 : 4,
    tokens: 1200 + index * 37,
    costUsd: 0.002 + index * 0.0004,
    durationMs: 800 + index * 150,
    final: { verdict: verdict === "passed" ? "approved" : "rejected", note: text, confidence: 0.5 + (index % 5) / 10 },
    scores: [
      {
        assertion: "approved",
        verdict: verdict === "passed" ? "passed" : "failed",
        score: verdict === "passed" ? 1 : 0,
        reason: null,
        error: null,
        judge: null,
      },
      {
        assertion: "tests-pass",
        verdict: verdict === "errored" ? "errored" : "passed",
        score: verdict === "errored" ? null : 1,
        reason: verdict === "errored" ? null : `ran 12 tests ${text}`,
        error: verdict === "errored" ? `scorer printed something else: ${text}` : null,
        judge: null,
      },
      {
        assertion: "judge",
        verdict: verdict === "passed" ? "passed" : "failed",
        score: verdict === "passed" ? 0.9 : 0.2,
        reason: `the judge says ${text}`,
        error: null,
        judge: { thread: threadId(100 + index), head: address(100 + index) },
      },
    ],
    verdict: verdict === "errored" ? "errored" : verdict,
    score: verdict === "passed" ? 0.97 : verdict === "failed" ? 0.4 : 0.55,
    error: null,
  });
}

function nearestRank(values: number[], fraction: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? null;
}

function distribution(values: number[]) {
  const total = values.reduce((sum, value) => sum + value, 0);
  return {
    p50: nearestRank(values, 0.5),
    p90: nearestRank(values, 0.9),
    max: values.length === 0 ? null : Math.max(...values),
    mean: values.length === 0 ? null : total / values.length,
    total,
  };
}

function wilson(passed: number, trials: number): { low: number; high: number } | null {
  if (trials === 0) return null;
  const z = 1.96;
  const rate = passed / trials;
  const center = (rate + (z * z) / (2 * trials)) / (1 + (z * z) / trials);
  const margin =
    (z * Math.sqrt((rate * (1 - rate)) / trials + (z * z) / (4 * trials * trials))) / (1 + (z * z) / trials);
  return { low: Math.max(0, center - margin), high: Math.min(1, center + margin) };
}

function summarize(samples: EvalSample[], assertionNames: string[]): EvalGroupSummary {
  const passed = samples.filter((sample) => sample.verdict === "passed").length;
  const failed = samples.filter((sample) => sample.verdict === "failed").length;
  const errored = samples.length - passed - failed;
  const outcomes = new Map<
    string,
    { status: EvalSample["status"]; outcome: string | null; role: string | null; count: number }
  >();
  const paths = new Map<string, { path: string[]; count: number }>();
  for (const sample of samples) {
    const key = `${sample.status}/${sample.outcome?.status}/${sample.outcome?.role}`;
    const entry = outcomes.get(key) ?? {
      status: sample.status,
      outcome: sample.outcome?.status ?? null,
      role: sample.outcome?.role ?? null,
      count: 0,
    };
    entry.count++;
    outcomes.set(key, entry);
    const path = paths.get(sample.path.join(">")) ?? { path: sample.path, count: 0 };
    path.count++;
    paths.set(sample.path.join(">"), path);
  }
  const verdictCounts = new Map<string, number>();
  for (const sample of samples) {
    const value = JSON.stringify(sample.final.verdict);
    verdictCounts.set(value, (verdictCounts.get(value) ?? 0) + 1);
  }
  const notes = new Map<string, number>();
  for (const sample of samples)
    notes.set(JSON.stringify(sample.final.note), (notes.get(JSON.stringify(sample.final.note)) ?? 0) + 1);
  const confidences = samples.map((sample) => Number(sample.final.confidence));
  return {
    samples: samples.length,
    passed,
    failed,
    errored,
    passRate: passed + failed === 0 ? null : passed / (passed + failed),
    interval: wilson(passed, passed + failed),
    assertions: assertionNames.map((name) => {
      const scores = samples.flatMap((sample) => sample.scores.filter((score) => score.assertion === name));
      const numbers = scores.flatMap((score) => (score.score === null ? [] : [score.score]));
      return {
        name,
        mean: numbers.length === 0 ? null : numbers.reduce((sum, value) => sum + value, 0) / numbers.length,
        passed: scores.filter((score) => score.verdict === "passed").length,
        failed: scores.filter((score) => score.verdict === "failed").length,
        errored: scores.filter((score) => score.verdict === "errored").length,
      };
    }),
    outcomes: [...outcomes.values()].sort((left, right) => right.count - left.count),
    paths: [...paths.values()].sort((left, right) => right.count - left.count).slice(0, 5),
    steps: distribution(samples.map((sample) => sample.steps)),
    tokens: distribution(samples.map((sample) => sample.tokens)),
    costUsd: distribution(samples.map((sample) => sample.costUsd)),
    durationMs: distribution(samples.map((sample) => sample.durationMs)),
    fields: [
      {
        field: "verdict",
        kind: "categorical",
        values: [...verdictCounts].map(([value, count]) => ({ value, count })),
        other: 0,
      },
      { field: "note", kind: "categorical", values: [...notes].map(([value, count]) => ({ value, count })), other: 0 },
      {
        field: "confidence",
        kind: "numeric",
        count: confidences.length,
        min: Math.min(...confidences),
        mean: confidences.reduce((sum, value) => sum + value, 0) / confidences.length,
        max: Math.max(...confidences),
      },
    ],
  };
}

function passAtK(samples: EvalSample[]) {
  const n = samples.length;
  const c = samples.filter((sample) => sample.verdict === "passed").length;
  const choose = (total: number, pick: number): number => {
    if (pick < 0 || pick > total) return 0;
    let result = 1;
    for (let index = 0; index < pick; index++) result = (result * (total - index)) / (index + 1);
    return result;
  };
  return Array.from({ length: n }, (_, index) => {
    const k = index + 1;
    return { k, passAtK: 1 - choose(n - c, k) / choose(n, k), passHatK: choose(c, k) / choose(n, k) };
  });
}

/** The hand-built report, checked against `evalResultSchema`. */
export function sampleEvalResult(options: SampleEvalResultOptions = {}): EvalResult {
  const text = options.text ?? "ok";
  const cases = { first: options.firstCase ?? "login", second: "redirect" } as const;
  const assertionNames = ["approved", "tests-pass", "judge"];
  const samples: EvalSample[] = [];
  for (const [variant, plan] of Object.entries(PLAN)) {
    for (const which of ["first", "second"] as const) {
      [...plan[which]].forEach((mark, repeat) => {
        samples.push(buildSample(samples.length + 1, cases[which], variant, repeat, mark, text));
      });
    }
  }
  const variants = Object.keys(PLAN).map((variant) => {
    const ofVariant = samples.filter((sample) => sample.variant === variant);
    return {
      variant,
      ...summarize(ofVariant, assertionNames),
      cases: [cases.first, cases.second].map((caseName) => {
        const ofCase = ofVariant.filter((sample) => sample.case === caseName);
        return { case: caseName, ...summarize(ofCase, assertionNames), passAtK: passAtK(ofCase) };
      }),
    };
  });
  return evalResultSchema.parse({
    report: "R01JEVXA",
    address: address(999),
    name: `nightly review ${text}`,
    createdAt: "2026-11-27T04:00:00.000Z",
    source: { kind: "suite", file: "/work/suite.yaml", text: address(998) },
    assertions: [
      { name: "approved", kind: "jsonata", expr: 'outcome.status = "approved"' },
      { name: "tests-pass", kind: "command", command: ["./score.sh", "--strict"], weight: 2 },
      { name: "judge", kind: "judge", workflow: "judge.yaml", role: "judge" },
    ],
    gate: { minPassRate: 0.9, passK: 5 },
    gateHeld: false,
    gateChecks: [
      { check: "min-pass-rate", held: false, detail: "pass rate 0.78 < 0.90" },
      { check: "pass-k", held: false, detail: `case ${cases.first} (candidate): 3 of 5 repeats passed` },
      { check: "errors", held: false, detail: "2 samples errored" },
    ],
    rescoredFrom: null,
    summary: { overall: summarize(samples, assertionNames), variants },
    comparisons: [
      {
        baseline: { report: null, variant: "baseline" },
        current: { report: null, variant: "candidate" },
        metrics: [
          { metric: "passRate", baseline: 0.9, current: 0.6667, delta: -0.2333 },
          { metric: "costUsd.p50", baseline: 0.0042, current: 0.0062, delta: 0.002 },
        ],
        regressed: [
          { case: cases.first, variant: "candidate", baseline: 1, current: 0.75 },
          { case: "redirect", variant: "candidate", baseline: 0.8, current: 0.5 },
        ],
        improved: [],
      },
    ],
    samples,
    unstarted: [],
  });
}

/** A report of a selection that matched no thread: every rate and percentile null. */
export function emptyEvalResult(): EvalResult {
  const result = sampleEvalResult();
  const empty = summarize([], []);
  return evalResultSchema.parse({
    ...result,
    name: "nothing matched",
    source: { kind: "selection", threads: [], forksOf: null, workflow: null, status: "ended" },
    assertions: [],
    gate: null,
    gateHeld: null,
    gateChecks: [],
    summary: { overall: { ...empty, fields: [] }, variants: [] },
    comparisons: [],
    samples: [],
    unstarted: [],
  });
}
