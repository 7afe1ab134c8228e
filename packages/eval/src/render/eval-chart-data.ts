import { EVAL_CHART_PALETTE, EVAL_VERDICT_COLORS, type EvalResult, type EvalVariantSummary } from "@uwf/protocol";
import { caseLabel, variantLabel } from "./format-eval-values.ts";

/** p50, p90 and max of one metric, one entry per variant. */
export interface DistributionSeries {
  p50: (number | null)[];
  p90: (number | null)[];
  max: (number | null)[];
}

/**
 * What the HTML report's charts draw, computed here so the page's script only lays it out: one entry per
 * variant in every list, in the summary's order.
 */
export interface EvalChartData {
  /** The colours of the series and of the verdicts, the UI's too. */
  colors: { palette: readonly string[]; verdicts: typeof EVAL_VERDICT_COLORS };
  variants: string[];
  verdicts: { passed: number[]; failed: number[]; errored: number[] };
  /** One series per distinct outcome (`ended · approved · reviewer`, `failed`), its count per variant. */
  outcomes: { label: string; counts: number[] }[];
  passRates: { rate: (number | null)[]; low: (number | null)[]; high: (number | null)[] };
  costUsd: DistributionSeries;
  durationSeconds: DistributionSeries;
  /** Per-case pass rates, one series per variant; null unless the report has several cases. */
  cases: { labels: string[]; series: { variant: string; rates: (number | null)[] }[] } | null;
}

function outcomeLabel(outcome: { status: string; outcome: string | null; role: string | null }): string {
  return [outcome.status, outcome.outcome, outcome.role].filter((part) => part !== null).join(" · ");
}

function distribution(
  variants: readonly EvalVariantSummary[],
  pick: (variant: EvalVariantSummary) => { p50: number | null; p90: number | null; max: number | null },
  scale = 1,
): DistributionSeries {
  const scaled = (value: number | null) => (value === null ? null : value * scale);
  return {
    p50: variants.map((variant) => scaled(pick(variant).p50)),
    p90: variants.map((variant) => scaled(pick(variant).p90)),
    max: variants.map((variant) => scaled(pick(variant).max)),
  };
}

function caseRates(variants: readonly EvalVariantSummary[]): EvalChartData["cases"] {
  const labels: string[] = [];
  for (const variant of variants) {
    for (const summary of variant.cases) {
      const label = caseLabel(summary.case);
      if (!labels.includes(label)) labels.push(label);
    }
  }
  if (labels.length < 2) return null;
  const series = variants.map((variant) => ({
    variant: variantLabel(variant.variant),
    rates: labels.map((label) => variant.cases.find((summary) => caseLabel(summary.case) === label)?.passRate ?? null),
  }));
  return { labels, series };
}

/** The charts' data from a report's summary. */
export function buildEvalChartData(result: EvalResult): EvalChartData {
  const variants = result.summary.variants;
  const outcomeLabels: string[] = [];
  for (const variant of variants) {
    for (const outcome of variant.outcomes) {
      const label = outcomeLabel(outcome);
      if (!outcomeLabels.includes(label)) outcomeLabels.push(label);
    }
  }
  return {
    colors: { palette: EVAL_CHART_PALETTE, verdicts: EVAL_VERDICT_COLORS },
    variants: variants.map((variant) => variantLabel(variant.variant)),
    verdicts: {
      passed: variants.map((variant) => variant.passed),
      failed: variants.map((variant) => variant.failed),
      errored: variants.map((variant) => variant.errored),
    },
    outcomes: outcomeLabels.map((label) => ({
      label,
      counts: variants.map((variant) =>
        variant.outcomes
          .filter((outcome) => outcomeLabel(outcome) === label)
          .reduce((sum, outcome) => sum + outcome.count, 0),
      ),
    })),
    passRates: {
      rate: variants.map((variant) => variant.passRate),
      low: variants.map((variant) => variant.interval?.low ?? null),
      high: variants.map((variant) => variant.interval?.high ?? null),
    },
    costUsd: distribution(variants, (variant) => variant.costUsd),
    durationSeconds: distribution(variants, (variant) => variant.durationMs, 1 / 1000),
    cases: caseRates(variants),
  };
}
