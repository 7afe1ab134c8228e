import type {
  EvalCaseSummary,
  EvalComparison,
  EvalGateCheck,
  EvalGroupSummary,
  EvalResult,
  EvalSample,
  EvalVariantSummary,
} from "@uwf/protocol";
import { describeGroup } from "../format/describe-group.ts";
import { describeSampleError } from "../format/describe-sample-error.ts";
import {
  formatCost,
  formatCount,
  formatDuration,
  formatInterval,
  formatRate,
  formatValue,
  MISSING,
} from "../format/format-number.ts";
import { describeMetric, formatMetricDelta, judgeDelta } from "./describe-metric.ts";
import { type Cell, cell, type ReportTable } from "./report-table.ts";

/** How long a categorical value may be before it is cut (`…`). */
const VALUE_WIDTH = 40;

export interface BuildReportTablesOptions {
  /** At most this many failed and errored samples are listed (all: Infinity). */
  samplesShown: number;
}

/**
 * The tables of a report, in the order a reader wants them: variants; cases (when there are several, or
 * repeats); assertions; outcomes; paths; final fields; failed and errored samples; the gate's checks; the
 * comparisons. Tables with nothing to say are left out.
 */
export function buildReportTables(result: EvalResult, options: BuildReportTablesOptions): ReportTable[] {
  const { summary } = result;
  const variants = summary.variants;
  const showVariant = variants.length > 1 || variants.some((variant) => variant.variant !== null);
  const tables: (ReportTable | null)[] = [
    variantsTable(variants),
    casesTable(variants, showVariant, result.gate?.passK),
    assertionsTable(result, showVariant),
    outcomesTable(variants, showVariant),
    pathsTable(variants, showVariant),
    fieldsTable(variants, showVariant),
    samplesTable(result.samples, showVariant, options.samplesShown),
    unstartedTable(result.unstarted),
    gateTable(result.gateChecks, result.gateHeld),
    ...buildComparisonTables(result.comparisons),
  ];
  return tables.filter((table): table is ReportTable => table !== null);
}

function variantName(variant: string | null): string {
  return variant ?? MISSING;
}

function passRateCell(group: EvalGroupSummary, minimum?: number): Cell {
  const text = formatRate(group.passRate);
  if (minimum === undefined || group.passRate === null) return cell(text);
  return cell(text, group.passRate < minimum - 1e-9 ? "bad" : "good");
}

function percentiles(
  distribution: { p50: number | null; p90: number | null },
  format: (value: number) => string,
): string {
  if (distribution.p50 === null || distribution.p90 === null) return MISSING;
  return `${format(distribution.p50)} / ${format(distribution.p90)}`;
}

/** The columns every group's row has: its counts, its pass rate and that rate's interval. */
const GROUP_COLUMNS = ["SAMPLES", "PASSED", "FAILED", "ERRORED", "PASS RATE", "95% CI"];
const GROUP_ALIGN = ["right", "right", "right", "right", "right", "left"] as const;

function groupCells(group: EvalGroupSummary): Cell[] {
  return [
    cell(String(group.samples)),
    cell(String(group.passed)),
    cell(String(group.failed), group.failed > 0 ? "bad" : undefined),
    cell(String(group.errored), group.errored > 0 ? "warn" : undefined),
    passRateCell(group),
    cell(formatInterval(group.interval), "dim"),
  ];
}

function variantsTable(variants: readonly EvalVariantSummary[]): ReportTable | null {
  if (variants.length === 0) return null;
  return {
    title: "Variants",
    header: ["VARIANT", ...GROUP_COLUMNS, "SCORE", "STEPS p50/p90", "COST p50/p90", "DURATION p50/p90"],
    align: ["left", ...GROUP_ALIGN, "right", "right", "right", "right"],
    dropRanks: [undefined, 1, undefined, undefined, undefined, undefined, 5, 3, 2, undefined, 4],
    rows: variants.map((variant) => [
      cell(variantName(variant.variant)),
      ...groupCells(variant),
      cell(formatRate(variant.meanScore)),
      cell(percentiles(variant.steps, formatCount)),
      cell(percentiles(variant.costUsd, formatCost)),
      cell(percentiles(variant.durationMs, formatDuration)),
    ]),
  };
}

/** The k a case's pass@k is shown at: the gate's K when the case has that many, else all its samples. */
function shownPassAtK(entry: EvalCaseSummary, gateK: number | undefined) {
  const last = entry.passAtK[entry.passAtK.length - 1];
  if (gateK === undefined) return last;
  return entry.passAtK.find((row) => row.k === gateK) ?? last;
}

function casesTable(
  variants: readonly EvalVariantSummary[],
  showVariant: boolean,
  gateK: number | undefined,
): ReportTable | null {
  const several = variants.some((variant) => variant.cases.length > 1);
  const repeats = variants.some((variant) => variant.cases.some((entry) => entry.passAtK.length > 1));
  if (!several && !repeats) return null;
  const rows = variants.flatMap((variant) =>
    variant.cases.map((entry) => {
      const passAtK = shownPassAtK(entry, gateK);
      return [
        cell(entry.case ?? MISSING),
        ...(showVariant ? [cell(variantName(variant.variant))] : []),
        ...groupCells(entry),
        cell(passAtK === undefined ? MISSING : String(passAtK.k)),
        cell(passAtK === undefined ? MISSING : formatRate(passAtK.passAtK)),
        cell(
          passAtK === undefined ? MISSING : formatRate(passAtK.passHatK),
          passAtK === undefined ? undefined : passAtK.passHatK < 1 ? "bad" : "good",
        ),
      ];
    }),
  );
  return {
    title: "Cases",
    header: ["CASE", ...(showVariant ? ["VARIANT"] : []), ...GROUP_COLUMNS, "K", "PASS@K", "PASS^K"],
    align: ["left", ...(showVariant ? (["left"] as const) : []), ...GROUP_ALIGN, "right", "right", "right"],
    dropRanks: [undefined, ...(showVariant ? [undefined] : []), 1, undefined, undefined, undefined, undefined, 2],
    rows,
  };
}

function assertionsTable(result: EvalResult, showVariant: boolean): ReportTable | null {
  if (result.assertions.length === 0) return null;
  const variants = result.summary.variants;
  const describe = (entry: EvalGroupSummary["assertions"][number] | undefined): Cell => {
    if (entry === undefined) return cell(MISSING);
    const errored = entry.errored > 0 ? `, ${entry.errored} errored` : "";
    return cell(
      `${formatRate(entry.mean)} (${entry.passed}/${entry.passed + entry.failed}${errored})`,
      entry.errored > 0 ? "warn" : undefined,
    );
  };
  return {
    title: "Assertions (mean score, passed/judged)",
    header: [
      "ASSERTION",
      "KIND",
      ...(showVariant ? variants.map((variant) => variantName(variant.variant)) : ["MEAN"]),
    ],
    align: ["left", "left", ...variants.map(() => "left" as const)],
    rows: result.assertions.map((assertion) => {
      const of = (group: EvalGroupSummary) => group.assertions.find((entry) => entry.name === assertion.name);
      return [
        cell(assertion.weight === undefined ? assertion.name : `${assertion.name} ×${formatValue(assertion.weight)}`),
        cell(assertion.kind, "dim"),
        ...(showVariant ? variants.map((variant) => describe(of(variant))) : [describe(of(result.summary.overall))]),
      ];
    }),
  };
}

function outcomesTable(variants: readonly EvalVariantSummary[], showVariant: boolean): ReportTable | null {
  const rows = variants.flatMap((variant) =>
    variant.outcomes.map((outcome) => [
      ...(showVariant ? [cell(variantName(variant.variant))] : []),
      cell(outcome.status, outcome.status === "failed" ? "bad" : outcome.status === "ended" ? undefined : "warn"),
      cell(outcome.outcome ?? MISSING),
      cell(outcome.role ?? MISSING),
      cell(String(outcome.count)),
      cell(formatRate(outcome.count / Math.max(1, variant.samples)), "dim"),
    ]),
  );
  if (rows.length === 0) return null;
  return {
    title: "Outcomes",
    header: [...(showVariant ? ["VARIANT"] : []), "STATUS", "$STATUS", "ENDED BY", "COUNT", "SHARE"],
    align: [...(showVariant ? (["left"] as const) : []), "left", "left", "left", "right", "right"],
    rows,
  };
}

function pathsTable(variants: readonly EvalVariantSummary[], showVariant: boolean): ReportTable | null {
  const rows = variants.flatMap((variant) =>
    variant.paths.map((path) => [
      ...(showVariant ? [cell(variantName(variant.variant))] : []),
      cell(String(path.count)),
      cell(path.path.length === 0 ? "(no steps)" : path.path.join(" → ")),
    ]),
  );
  if (rows.length === 0) return null;
  return {
    title: "Top role paths",
    header: [...(showVariant ? ["VARIANT"] : []), "COUNT", "PATH"],
    align: [...(showVariant ? (["left"] as const) : []), "right", "left"],
    rows,
    cutLast: true,
  };
}

function cut(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function fieldsTable(variants: readonly EvalVariantSummary[], showVariant: boolean): ReportTable | null {
  const rows = variants.flatMap((variant) =>
    variant.fields.map((field) => [
      ...(showVariant ? [cell(variantName(variant.variant))] : []),
      cell(field.field),
      cell(
        field.kind === "numeric"
          ? `min ${formatValue(field.min)} · mean ${formatValue(field.mean)} · max ${formatValue(field.max)} (${field.count})`
          : [
              ...field.values.map((value) => `${cut(value.value, VALUE_WIDTH)} ×${value.count}`),
              ...(field.other > 0 ? [`other ×${field.other}`] : []),
            ].join(", "),
      ),
    ]),
  );
  if (rows.length === 0) return null;
  return {
    title: "Final reply fields",
    header: [...(showVariant ? ["VARIANT"] : []), "FIELD", "VALUES"],
    align: [],
    rows,
    cutLast: true,
  };
}

/** Why a sample failed, in a line: its first failing assertion and the reason it gave. */
export function describeSampleFailure(sample: EvalSample): string {
  if (sample.verdict === "errored") return describeSampleError(sample);
  const failed = sample.scores.find((score) => score.verdict === "failed");
  if (failed === undefined) return sample.verdict;
  const reason = failed.reason === null ? "" : `: ${failed.reason.split("\n", 1)[0] ?? ""}`;
  return cut(`${failed.assertion} failed${reason}`, 120);
}

function samplesTable(samples: readonly EvalSample[], showVariant: boolean, shown: number): ReportTable | null {
  const listed = samples.filter((sample) => sample.verdict !== "passed");
  if (listed.length === 0) return null;
  const showCase = samples.some((sample) => sample.case !== null);
  const showRepeat = samples.some((sample) => sample.repeat !== null);
  const rows = listed
    .slice(0, shown)
    .map((sample) => [
      { text: sample.thread, code: true },
      ...(showCase ? [cell(sample.case ?? MISSING)] : []),
      ...(showVariant ? [cell(variantName(sample.variant))] : []),
      ...(showRepeat ? [cell(sample.repeat === null ? MISSING : String(sample.repeat))] : []),
      cell(sample.verdict, sample.verdict === "errored" ? "warn" : "bad"),
      cell(describeSampleFailure(sample)),
    ]);
  return {
    title: "Failed and errored samples",
    header: [
      "THREAD",
      ...(showCase ? ["CASE"] : []),
      ...(showVariant ? ["VARIANT"] : []),
      ...(showRepeat ? ["REPEAT"] : []),
      "VERDICT",
      "WHY",
    ],
    align: [
      "left",
      ...(showCase ? (["left"] as const) : []),
      ...(showVariant ? (["left"] as const) : []),
      ...(showRepeat ? (["right"] as const) : []),
    ],
    rows,
    cutLast: true,
    ...(listed.length > shown ? { note: `… and ${listed.length - shown} more (--json lists every sample)` } : {}),
  };
}

/** Runs of a suite that never got a thread (a bad workflow, a missing fixture): not samples, but errors. */
function unstartedTable(unstarted: EvalResult["unstarted"]): ReportTable | null {
  if (unstarted.length === 0) return null;
  return {
    title: "Runs that did not start",
    header: ["CASE", "VARIANT", "REPEAT", "ERROR"],
    align: ["left", "left", "right", "left"],
    rows: unstarted.map((run) => [
      cell(run.case ?? MISSING),
      cell(run.variant ?? MISSING),
      cell(run.repeat === null ? MISSING : String(run.repeat)),
      cell(run.error, "bad"),
    ]),
    cutLast: true,
  };
}

function gateTable(checks: readonly EvalGateCheck[], held: boolean | null): ReportTable | null {
  // Without a gate, only an errors check that failed is worth a table.
  const shown = held === null ? checks.filter((check) => !check.held) : checks;
  if (shown.length === 0) return null;
  return {
    title: held === null ? "Checks" : held ? "Gate: held" : "Gate: did not hold",
    header: ["", "CHECK", "DETAIL"],
    align: [],
    rows: shown.map((check) => [
      cell(check.held ? "✓" : "✗", check.held ? "good" : "bad"),
      cell(check.check),
      cell(check.detail),
    ]),
    cutLast: true,
  };
}

/** A side of a comparison in words: `variant "v2"`, `report R2`, `variant "v2" of report R2`. */
export function describeComparisonSide(side: { report: string | null; variant: string | null }): string {
  if (side.report === null) return side.variant === null ? "the report" : `variant ${JSON.stringify(side.variant)}`;
  return side.variant === null
    ? `report ${side.report}`
    : `variant ${JSON.stringify(side.variant)} of report ${side.report}`;
}

/** The title of a comparison: `variant "v2" against variant "v1" (baseline)`. */
export function describeComparison(comparison: EvalComparison): string {
  const sameReport = comparison.baseline.report === comparison.current.report;
  const side = (entry: EvalComparison["baseline"]) =>
    sameReport && entry.variant !== null
      ? describeComparisonSide({ ...entry, report: null })
      : describeComparisonSide(entry);
  return `${side(comparison.current)} against ${side(comparison.baseline)} (baseline)`;
}

/** Each comparison as a table of its metrics, followed by its regressed and improved cases. */
export function buildComparisonTables(comparisons: readonly EvalComparison[]): ReportTable[] {
  return comparisons.flatMap((comparison): ReportTable[] => {
    const metrics: ReportTable = {
      title: describeComparison(comparison),
      header: ["METRIC", "BASELINE", "CURRENT", "DELTA"],
      align: ["left", "right", "right", "right"],
      rows: comparison.metrics.map((metric) => {
        const { label, format } = describeMetric(metric.metric);
        const judged = judgeDelta(metric.metric, metric.delta);
        return [
          cell(label),
          cell(metric.baseline === null ? MISSING : format(metric.baseline)),
          cell(metric.current === null ? MISSING : format(metric.current)),
          cell(formatMetricDelta(metric.metric, metric.delta), judged ?? undefined),
        ];
      }),
    };
    const changes = [
      ...comparison.regressed.map((change) => ({ change, kind: "regressed" as const })),
      ...comparison.improved.map((change) => ({ change, kind: "improved" as const })),
    ];
    if (changes.length === 0) return [metrics];
    return [
      metrics,
      {
        title: `Cases that moved (${comparison.regressed.length} regressed, ${comparison.improved.length} improved)`,
        header: ["", "CASE", "BASELINE", "CURRENT", "DELTA"],
        align: ["left", "left", "right", "right", "right"],
        rows: changes.map(({ change, kind }) => [
          cell(kind, kind === "regressed" ? "bad" : "good"),
          cell(describeGroup(change.variant, change.case)),
          cell(formatRate(change.baseline)),
          cell(formatRate(change.current)),
          cell(
            change.baseline === null || change.current === null
              ? MISSING
              : formatMetricDelta("passRate", change.current - change.baseline),
            kind === "regressed" ? "bad" : "good",
          ),
        ]),
      },
    ];
  });
}
