import type { EvalAssertion, EvalGroupSummary, EvalSample } from "@uwf/protocol";
import { summarizeDistribution } from "./summarize-distribution.ts";
import { compareText, summarizeFields } from "./summarize-fields.ts";
import { wilsonInterval } from "./wilson-interval.ts";

/** How many role paths a summary lists. */
export const PATHS_SHOWN = 5;

export interface SummarizeGroupOptions {
  /** Count errored samples as failed in the pass rate (`--allow-errors`) instead of leaving them out. */
  allowErrors?: boolean;
}

/**
 * The summary of one group of samples (all of them, a variant's, a case's). The pass rate is passed over
 * passed + failed, or over all samples with `allowErrors`; the counts stay as they are (an errored sample
 * is never counted as failed in `failed`). Distributions and fields are over every sample, errored ones
 * included: an errored sample's thread still ran and cost what it cost.
 */
export function summarizeGroup(
  samples: readonly EvalSample[],
  assertions: readonly Pick<EvalAssertion, "name">[],
  options: SummarizeGroupOptions = {},
): EvalGroupSummary {
  const passed = count(samples, "passed");
  const failed = count(samples, "failed");
  const errored = count(samples, "errored");
  const judged = passed + failed + (options.allowErrors === true ? errored : 0);
  const scores = samples.flatMap((sample) => (sample.score === null ? [] : [sample.score]));
  return {
    samples: samples.length,
    passed,
    failed,
    errored,
    passRate: judged === 0 ? null : passed / judged,
    interval: wilsonInterval(passed, judged),
    meanScore: mean(scores),
    assertions: summarizeAssertions(samples, assertions),
    outcomes: summarizeOutcomes(samples),
    paths: summarizePaths(samples),
    steps: summarizeDistribution(samples.map((sample) => sample.steps)),
    tokens: summarizeDistribution(samples.map((sample) => sample.tokens)),
    costUsd: summarizeDistribution(samples.map((sample) => sample.costUsd)),
    durationMs: summarizeDistribution(samples.map((sample) => sample.durationMs)),
    fields: summarizeFields(samples),
  };
}

function count(samples: readonly EvalSample[], verdict: EvalSample["verdict"]): number {
  return samples.filter((sample) => sample.verdict === verdict).length;
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Each assertion, in the report's order: its mean score where it did not err, and its verdicts. */
function summarizeAssertions(
  samples: readonly EvalSample[],
  assertions: readonly Pick<EvalAssertion, "name">[],
): EvalGroupSummary["assertions"] {
  return assertions.map(({ name }) => {
    const scores = samples.flatMap((sample) => sample.scores.filter((score) => score.assertion === name));
    return {
      name,
      mean: mean(scores.flatMap((score) => (score.verdict === "errored" || score.score === null ? [] : [score.score]))),
      passed: scores.filter((score) => score.verdict === "passed").length,
      failed: scores.filter((score) => score.verdict === "failed").length,
      errored: scores.filter((score) => score.verdict === "errored").length,
    };
  });
}

/** How the samples ended (status, final `$status`, ending role), most frequent first, ties by their text. */
function summarizeOutcomes(samples: readonly EvalSample[]): EvalGroupSummary["outcomes"] {
  const counts = new Map<string, EvalGroupSummary["outcomes"][number]>();
  for (const sample of samples) {
    const outcome = sample.outcome?.status ?? null;
    const role = sample.outcome?.role ?? null;
    const key = JSON.stringify([sample.status, outcome, role]);
    const known = counts.get(key);
    if (known === undefined) counts.set(key, { status: sample.status, outcome, role, count: 1 });
    else known.count++;
  }
  return [...counts]
    .sort(([leftKey, left], [rightKey, right]) => right.count - left.count || compareText(leftKey, rightKey))
    .map(([, entry]) => entry);
}

/** The most frequent role paths, at most PATHS_SHOWN, most frequent first, ties by their text. */
function summarizePaths(samples: readonly EvalSample[]): EvalGroupSummary["paths"] {
  const counts = new Map<string, { path: string[]; count: number }>();
  for (const sample of samples) {
    const key = JSON.stringify(sample.path);
    const known = counts.get(key);
    if (known === undefined) counts.set(key, { path: [...sample.path], count: 1 });
    else known.count++;
  }
  return [...counts]
    .sort(([leftKey, left], [rightKey, right]) => right.count - left.count || compareText(leftKey, rightKey))
    .slice(0, PATHS_SHOWN)
    .map(([, entry]) => entry);
}
