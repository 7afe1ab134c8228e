import { EVAL_CHART_PALETTE, EVAL_VERDICT_COLORS, type EvalResult, type EvalVariantSummary } from "@uwf/protocol";
import type { ChartConfiguration } from "chart.js";
import { useMemo } from "preact/hooks";
import { EvalChart } from "./eval-chart.tsx";
import { formatCost, formatDuration, formatPercent } from "./format.ts";

function variantName(variant: string | null): string {
  return variant ?? "(all)";
}

function outcomeLabel(outcome: { status: string; outcome: string | null; role: string | null }): string {
  return [outcome.status, outcome.outcome, outcome.role].filter((part) => part !== null).join(" · ");
}

const stackedCounts = {
  scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
};

function verdicts(labels: string[], variants: readonly EvalVariantSummary[]): ChartConfiguration {
  return {
    type: "bar",
    data: {
      labels,
      datasets: (["passed", "failed", "errored"] as const).map((verdict) => ({
        label: verdict,
        data: variants.map((variant) => variant[verdict]),
        backgroundColor: EVAL_VERDICT_COLORS[verdict],
      })),
    },
    options: stackedCounts,
  };
}

function passRates(labels: string[], variants: readonly EvalVariantSummary[]): ChartConfiguration {
  const text = getComputedStyle(document.documentElement).getPropertyValue("--fg").trim();
  return {
    type: "bar",
    data: {
      labels,
      datasets: [
        {
          type: "line",
          label: "pass rate",
          data: variants.map((variant) => variant.passRate),
          showLine: false,
          pointStyle: "rectRot",
          pointRadius: 7,
          backgroundColor: text,
          borderColor: text,
        },
        {
          type: "bar",
          label: "95% interval",
          data: variants.map((variant) =>
            variant.interval === null ? null : ([variant.interval.low, variant.interval.high] as unknown as number),
          ),
          backgroundColor: "rgba(78, 121, 167, 0.35)",
          borderColor: "#4e79a7",
          borderWidth: 1,
          barPercentage: 0.4,
        },
      ],
    },
    options: {
      scales: { y: { min: 0, max: 1, ticks: { callback: (value) => formatPercent(Number(value)) } } },
      plugins: {
        tooltip: {
          callbacks: {
            label: (item) =>
              Array.isArray(item.raw)
                ? `95% interval: ${formatPercent(item.raw[0] as number)}–${formatPercent(item.raw[1] as number)}`
                : `pass rate: ${formatPercent(item.parsed.y)}`,
          },
        },
      },
    },
  } as ChartConfiguration;
}

/** Samples per score bucket (0–0.1 … 0.9–1), one series per variant: the distribution of scores. */
function scores(result: EvalResult, labels: string[]): ChartConfiguration {
  const buckets = Array.from(
    { length: 10 },
    (_, index) => `${(index / 10).toFixed(1)}–${((index + 1) / 10).toFixed(1)}`,
  );
  const variants = result.summary.variants.map((variant) => variant.variant);
  return {
    type: "bar",
    data: {
      labels: buckets,
      datasets: variants.map((variant, index) => {
        const counts = buckets.map(() => 0);
        for (const sample of result.samples) {
          if (sample.variant !== variant || sample.score === null) continue;
          const bucket = Math.min(9, Math.floor(sample.score * 10));
          counts[bucket] = (counts[bucket] ?? 0) + 1;
        }
        return {
          label: labels[index] ?? "",
          data: counts,
          backgroundColor: EVAL_CHART_PALETTE[index % EVAL_CHART_PALETTE.length],
        };
      }),
    },
    options: {
      scales: { x: { title: { display: true, text: "score" } }, y: { beginAtZero: true, ticks: { precision: 0 } } },
    },
  };
}

function outcomes(labels: string[], variants: readonly EvalVariantSummary[]): ChartConfiguration {
  const names: string[] = [];
  for (const variant of variants) {
    for (const outcome of variant.outcomes) {
      const label = outcomeLabel(outcome);
      if (!names.includes(label)) names.push(label);
    }
  }
  return {
    type: "bar",
    data: {
      labels,
      datasets: names.map((name, index) => ({
        label: name,
        data: variants.map((variant) =>
          variant.outcomes
            .filter((outcome) => outcomeLabel(outcome) === name)
            .reduce((sum, each) => sum + each.count, 0),
        ),
        backgroundColor: EVAL_CHART_PALETTE[index % EVAL_CHART_PALETTE.length],
      })),
    },
    options: stackedCounts,
  };
}

function distribution(
  labels: string[],
  variants: readonly EvalVariantSummary[],
  pick: (variant: EvalVariantSummary) => { p50: number | null; p90: number | null; max: number | null },
  format: (value: number) => string,
  formatTick: (value: number) => string = format,
): ChartConfiguration {
  return {
    type: "bar",
    data: {
      labels,
      datasets: (["p50", "p90", "max"] as const).map((key, index) => ({
        label: key,
        data: variants.map((variant) => pick(variant)[key]),
        backgroundColor: ["#4e79a7", "#a0cbe8", "#bab0ac"][index],
      })),
    },
    options: {
      scales: { y: { beginAtZero: true, ticks: { callback: (value) => formatTick(Number(value)) } } },
      plugins: { tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${format(item.parsed.y ?? 0)}` } } },
    },
  };
}

/**
 * A dollar amount on the cost axis, to three significant digits: the axis steps by fractions of a cent
 * (0.005, 0.015), which formatCost's cents would print twice over (`$0.01`, `$0.01`).
 */
function formatCostTick(usd: number): string {
  return usd === 0 ? "$0" : `$${Number(usd.toPrecision(3))}`;
}

/** An eval report's charts: verdicts, pass rates with intervals, scores, outcomes, cost and duration per variant. */
export function EvalCharts(props: { result: EvalResult }) {
  const { result } = props;
  const configs = useMemo(() => {
    const variants = result.summary.variants;
    const labels = variants.map((variant) => variantName(variant.variant));
    return {
      verdicts: verdicts(labels, variants),
      passRates: passRates(labels, variants),
      scores: scores(result, labels),
      outcomes: outcomes(labels, variants),
      cost: distribution(labels, variants, (variant) => variant.costUsd, formatCost, formatCostTick),
      duration: distribution(labels, variants, (variant) => variant.durationMs, formatDuration),
    };
  }, [result]);
  return (
    <div class="eval-charts">
      <EvalChart name="verdicts" title="Samples by verdict" config={configs.verdicts} />
      <EvalChart name="pass-rate" title="Pass rate with its 95% Wilson interval" config={configs.passRates} />
      <EvalChart name="scores" title="Score distribution" config={configs.scores} />
      <EvalChart name="outcomes" title="Outcomes (status · final $status · ending role)" config={configs.outcomes} />
      <EvalChart
        name="cost"
        title="Cost per sample"
        config={configs.cost}
        note={result.summary.overall.costUsd.total === 0 ? "no cost recorded (agents that report none)" : null}
      />
      <EvalChart name="duration" title="Duration per sample" config={configs.duration} />
    </div>
  );
}
