import type { EvalCaseSummary, EvalComparison, EvalGroupSummary, EvalSummary } from "@uwf/protocol";
import { VariantNotFoundError } from "../errors/variant-not-found-error.ts";

/** Rates that differ by less than this have not moved. */
const TOLERANCE = 1e-9;

/** Which report and variant each side of a comparison is (null report: the report shown; null variant: the whole report, or samples without one). */
export interface ComparisonLabels {
  baseline: { report: string | null; variant: string | null };
  current: { report: string | null; variant: string | null };
}

/** One side of a comparison: a group's summary, and its cases with the variant each belongs to. */
export interface ComparisonSide {
  summary: EvalGroupSummary;
  cases: readonly { variant: string | null; summary: EvalCaseSummary }[];
  /** Whether the pass rates counted errored samples as failed. */
  allowErrors?: boolean;
}

/**
 * A whole report (`variant` undefined) or one of its variants as a side of a comparison. A variant the
 * summary does not have is a VariantNotFoundError listing those it has.
 */
export function comparisonSide(summary: EvalSummary, variant?: string | null): ComparisonSide {
  if (variant === undefined)
    return {
      summary: summary.overall,
      cases: summary.variants.flatMap((entry) =>
        entry.cases.map((caseSummary) => ({ variant: entry.variant, summary: caseSummary })),
      ),
      allowErrors: summary.allowErrors,
    };
  const found = summary.variants.find((entry) => entry.variant === variant);
  if (found === undefined) {
    throw new VariantNotFoundError(
      variant ?? "(none)",
      summary.variants.map((entry) => entry.variant),
    );
  }
  return {
    summary: found,
    cases: found.cases.map((caseSummary) => ({ variant: found.variant, summary: caseSummary })),
    allowErrors: summary.allowErrors,
  };
}

/**
 * `current` against `baseline`. Metrics, each with both values and the delta (current minus baseline; null
 * when either is missing), in this order and by these names: `passRate`, `meanScore`, `assertion:NAME` for
 * each assertion (the baseline's, then those only the current has), `steps.p50`, `steps.p90`, `tokens.p50`,
 * `tokens.p90`, `costUsd.p50`, `costUsd.p90`, `durationMs.p50`, `durationMs.p90`, `errored` (a count).
 *
 * Cases are matched by name, and also by variant when both sides' cases come from the same variants;
 * otherwise a case's samples across variants count together. A named case whose pass rate fell is
 * regressed, one whose rate rose improved, the largest change first (ties in the current side's order); a
 * case on one side only, or without a rate on either, has not moved.
 */
export function compareSummaries(
  baseline: ComparisonSide,
  current: ComparisonSide,
  labels: ComparisonLabels,
): EvalComparison {
  const metrics: EvalComparison["metrics"] = [];
  const add = (metric: string, before: number | null | undefined, after: number | null | undefined) => {
    const baselineValue = before ?? null;
    const currentValue = after ?? null;
    metrics.push({
      metric,
      baseline: baselineValue,
      current: currentValue,
      delta: baselineValue === null || currentValue === null ? null : currentValue - baselineValue,
    });
  };
  add("passRate", baseline.summary.passRate, current.summary.passRate);
  add("meanScore", baseline.summary.meanScore, current.summary.meanScore);
  const names = [
    ...new Set([...baseline.summary.assertions, ...current.summary.assertions].map((entry) => entry.name)),
  ];
  for (const name of names) {
    const mean = (side: ComparisonSide) => side.summary.assertions.find((entry) => entry.name === name)?.mean;
    add(`assertion:${name}`, mean(baseline), mean(current));
  }
  for (const metric of ["steps", "tokens", "costUsd", "durationMs"] as const) {
    add(`${metric}.p50`, baseline.summary[metric].p50, current.summary[metric].p50);
    add(`${metric}.p90`, baseline.summary[metric].p90, current.summary[metric].p90);
  }
  add("errored", baseline.summary.errored, current.summary.errored);
  const { regressed, improved } = compareCases(baseline, current, labels.current.variant);
  return { baseline: { ...labels.baseline }, current: { ...labels.current }, metrics, regressed, improved };
}

interface CaseRate {
  variant: string | null;
  case: string;
  passed: number;
  judged: number;
}

function compareCases(
  baseline: ComparisonSide,
  current: ComparisonSide,
  currentVariant: string | null,
): Pick<EvalComparison, "regressed" | "improved"> {
  const variantsOf = (side: ComparisonSide) =>
    JSON.stringify([...new Set(side.cases.map((entry) => JSON.stringify(entry.variant)))].sort());
  const byVariant = variantsOf(baseline) === variantsOf(current);
  const before = caseRates(baseline, byVariant);
  const after = caseRates(current, byVariant);
  const changes: { change: EvalComparison["regressed"][number]; delta: number }[] = [];
  for (const [key, rate] of after) {
    const known = before.get(key);
    if (known === undefined || known.judged === 0 || rate.judged === 0) continue;
    const baselineRate = known.passed / known.judged;
    const currentRate = rate.passed / rate.judged;
    if (Math.abs(currentRate - baselineRate) < TOLERANCE) continue;
    changes.push({
      change: {
        case: rate.case,
        variant: byVariant ? rate.variant : currentVariant,
        baseline: baselineRate,
        current: currentRate,
      },
      delta: currentRate - baselineRate,
    });
  }
  return {
    regressed: changes
      .filter((entry) => entry.delta < 0)
      .sort((left, right) => left.delta - right.delta)
      .map((entry) => entry.change),
    improved: changes
      .filter((entry) => entry.delta > 0)
      .sort((left, right) => right.delta - left.delta)
      .map((entry) => entry.change),
  };
}

/** The side's named cases, keyed by name (and variant), their samples summed where a key repeats. */
function caseRates(side: ComparisonSide, byVariant: boolean): Map<string, CaseRate> {
  const rates = new Map<string, CaseRate>();
  for (const { variant, summary } of side.cases) {
    if (summary.case === null) continue;
    const key = JSON.stringify(byVariant ? [variant, summary.case] : [summary.case]);
    const judged = summary.passed + summary.failed + (side.allowErrors === true ? summary.errored : 0);
    const known = rates.get(key);
    if (known === undefined) rates.set(key, { variant, case: summary.case, passed: summary.passed, judged });
    else {
      known.passed += summary.passed;
      known.judged += judged;
    }
  }
  return rates;
}

/**
 * `--baseline VARIANT`: every other variant of the report against the named one, in the report's order.
 * A name the report has no variant of is a VariantNotFoundError listing the variants it has.
 */
export function compareVariants(
  summary: EvalSummary,
  baselineVariant: string,
  options: { report?: string | null } = {},
): EvalComparison[] {
  const report = options.report ?? null;
  const baseline = comparisonSide(summary, baselineVariant);
  return summary.variants
    .filter((entry) => entry.variant !== baselineVariant)
    .map((entry) =>
      compareSummaries(baseline, comparisonSide(summary, entry.variant), {
        baseline: { report, variant: baselineVariant },
        current: { report, variant: entry.variant },
      }),
    );
}

/**
 * `eval diff R1 R2` and `--baseline REPORT`: the current report against the baseline report, whole
 * (variant null on both labels) and then, when either has several variants, each variant both have, in the
 * current report's order.
 */
export function compareReports(
  baseline: { report: string; summary: EvalSummary },
  current: { report: string; summary: EvalSummary },
): EvalComparison[] {
  const whole = compareSummaries(comparisonSide(baseline.summary), comparisonSide(current.summary), {
    baseline: { report: baseline.report, variant: null },
    current: { report: current.report, variant: null },
  });
  const several = baseline.summary.variants.length > 1 || current.summary.variants.length > 1;
  if (!several) return [whole];
  const baselineVariants = new Set(baseline.summary.variants.map((entry) => entry.variant));
  const shared = current.summary.variants
    .map((entry) => entry.variant)
    .filter((variant): variant is string => variant !== null && baselineVariants.has(variant));
  return [
    whole,
    ...shared.map((variant) =>
      compareSummaries(comparisonSide(baseline.summary, variant), comparisonSide(current.summary, variant), {
        baseline: { report: baseline.report, variant },
        current: { report: current.report, variant },
      }),
    ),
  ];
}
