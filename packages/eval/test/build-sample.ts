import type { EvalSample, EvalScore } from "@uwf/protocol";

let counter = 0;

/** A thread id that parses (26 Crockford base32 characters), different on every call. */
export function nextThreadId(): string {
  counter++;
  return `01JTEST${String(counter).padStart(19, "0")}`;
}

/** A score of one assertion: passed (1), failed (0), errored (null), or a fraction (passing at 0.5 and above). */
export function buildScore(
  assertion: string,
  result: "passed" | "failed" | "errored" | number,
  reason?: string,
): EvalScore {
  if (result === "errored")
    return {
      assertion,
      verdict: "errored",
      score: null,
      reason: null,
      error: reason ?? "scorer exited 1",
      judge: null,
    };
  const score = typeof result === "number" ? result : result === "passed" ? 1 : 0;
  return {
    assertion,
    verdict: score >= 0.5 ? "passed" : "failed",
    score,
    reason: reason ?? null,
    error: null,
    judge: null,
  };
}

/**
 * A sample as the scorer would record it: by default one ended thread of three steps whose one assertion
 * (`ok`) passed. Its verdict and score follow from `scores` unless given.
 */
export function buildSample(overrides: Partial<EvalSample> = {}): EvalSample {
  const scores = overrides.scores ?? [buildScore("ok", "passed")];
  const judged = scores.filter((score) => score.verdict !== "errored");
  const verdict: EvalSample["verdict"] = scores.some((score) => score.verdict === "errored")
    ? "errored"
    : scores.every((score) => score.verdict === "passed")
      ? "passed"
      : "failed";
  return {
    thread: nextThreadId(),
    head: "0AAAAAAAAAAAA",
    case: null,
    variant: null,
    repeat: null,
    workflow: "review",
    status: "ended",
    outcome: { role: "reviewer", status: "approved", edge: { index: 0, condition: null, key: "approved" } },
    path: ["planner", "coder", "reviewer"],
    steps: 3,
    tokens: 1000,
    costUsd: 0.01,
    durationMs: 2000,
    final: {},
    verdict,
    score: judged.length === 0 ? null : judged.reduce((sum, score) => sum + (score.score ?? 0), 0) / judged.length,
    error: null,
    ...overrides,
    scores,
  };
}

/** `count` samples of one case and variant, repeats 0 … count − 1, the first `passed` passing. */
export function buildRepeats(
  count: number,
  passed: number,
  fields: { case?: string | null; variant?: string | null } = {},
): EvalSample[] {
  return Array.from({ length: count }, (_, repeat) =>
    buildSample({
      case: fields.case ?? null,
      variant: fields.variant ?? null,
      repeat,
      scores: [buildScore("ok", repeat < passed ? "passed" : "failed")],
    }),
  );
}
