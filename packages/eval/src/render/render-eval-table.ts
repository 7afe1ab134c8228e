import type { EvalDiffResult, EvalListResult, EvalResult, EvalSource } from "@uwf/protocol";
import { formatInterval, formatRate, MISSING } from "../format/format-number.ts";
import { buildComparisonTables, buildReportTables } from "./build-report-tables.ts";
import { createPalette, type Palette } from "./create-palette.ts";
import { formatColumns, visibleLength } from "./format-columns.ts";
import type { Cell, ReportTable } from "./report-table.ts";

export interface RenderEvalTableOptions {
  /** Colour the text (the caller decides: a terminal, not NO_COLOR). */
  color: boolean;
  /** How many failed and errored samples to list (default 10); `--json` has them all. */
  samplesShown?: number;
  /**
   * The terminal's width: a table wider leaves out its least needed columns (the sample count, steps,
   * score, duration, the interval, in that order) and cuts long last cells (reasons, details, values) to fit.
   * Undefined: no limit.
   */
  width?: number;
}

/**
 * A report for a terminal: a headline (name, report id, samples, pass rate with its 95% interval, the
 * gate's verdict), then a table per variant (samples, passed/failed/errored, pass rate and interval, mean
 * score, p50/p90 steps, cost and duration), per case with pass@K and pass^K (K: the gate's, else every
 * repeat), each assertion's mean, the outcome distribution, the top role paths, the final reply's fields,
 * the failed and errored samples by thread id, the gate's checks (✓/✗) and the comparisons with a baseline
 * (signed deltas, the cases that regressed or improved). Numbers are written as format-number.ts says:
 * rates as `0.80`.
 */
export function renderEvalTable(result: EvalResult, options: RenderEvalTableOptions): string {
  const paint = createPalette(options.color);
  const tables = buildReportTables(result, { samplesShown: options.samplesShown ?? 10 });
  return [headline(result, paint), ...tables.map((table) => renderTable(table, paint, options.width))].join("\n\n");
}

function headline(result: EvalResult, paint: Palette): string {
  const { overall } = result.summary;
  const lines = [
    `${paint.bold(`eval ${JSON.stringify(result.name)}`)} ${paint.dim(`· report ${result.report} · ${result.createdAt.replace("T", " ").replace(/\.\d+Z$|Z$/, "")}${describeSource(result.source) === result.name ? "" : ` · ${describeSource(result.source)}`}`)}`,
    `${overall.samples} ${overall.samples === 1 ? "sample" : "samples"}: ${overall.passed} passed, ${overall.failed} failed, ${overall.errored} errored · pass rate ${formatRate(overall.passRate)}${overall.interval === null ? "" : ` ${paint.dim(formatInterval(overall.interval))}`} · mean score ${formatRate(overall.meanScore)}${result.summary.allowErrors === true ? paint.dim(" · errored counted as failed") : ""}`,
  ];
  if (result.rescoredFrom !== null) lines.push(paint.dim(`rescored from report node ${result.rescoredFrom}`));
  if (result.gateHeld === true) lines.push(paint.green("✓ gate held"));
  if (result.gateHeld === false) {
    const failed = result.gateChecks.filter((check) => !check.held);
    lines.push(paint.red(`✗ gate did not hold: ${failed.map((check) => check.check).join(", ")}`));
  }
  if (result.html !== undefined) lines.push(paint.dim(`html: ${result.html}`));
  return lines.join("\n");
}

/** What a report scored, in a few words: `suite suite.yaml`, `3 threads`, `forks of T (recursive)`. */
export function describeSource(source: EvalSource): string {
  if (source.kind === "suite") return `suite ${source.file}`;
  const parts: string[] = [];
  if (source.forksOf !== null)
    parts.push(`forks of ${source.forksOf.thread}${source.forksOf.recursive ? " (recursive)" : ""}`);
  if (source.threads.length > 0)
    parts.push(`${source.threads.length} ${source.threads.length === 1 ? "thread" : "threads"}`);
  if (source.workflow !== null) parts.push(`workflow ${source.workflow}`);
  if (source.status !== null) parts.push(`status ${source.status}`);
  return parts.length === 0 ? "selected threads" : parts.join(", ");
}

function paintCell(value: Cell, paint: Palette): string {
  switch (value.tone) {
    case "good":
      return paint.green(value.text);
    case "bad":
      return paint.red(value.text);
    case "warn":
      return paint.yellow(value.text);
    case "dim":
      return paint.dim(value.text);
    default:
      return value.text;
  }
}

/** The narrowest a last column is cut to. */
const MIN_LAST_WIDTH = 16;

/**
 * A report table as terminal columns under its bold title. With a width, columns are left out by their
 * drop ranks (lowest first) until the rows fit, then the last column's cells are cut if it may be.
 */
export function renderTable(table: ReportTable, paint: Palette, width?: number): string {
  const render = (columns: number[], lastWidth?: number) =>
    formatColumns(
      columns.map((column) => paint.dim(table.header[column] ?? "")),
      table.rows.map((row) =>
        columns.map((column, index) => {
          const value = row[column] ?? { text: "" };
          const cut =
            lastWidth !== undefined && index === columns.length - 1 ? cutText(value.text, lastWidth) : value.text;
          return paintCell({ ...value, text: cut }, paint);
        }),
      ),
      columns.map((column) => table.align[column] ?? "left"),
    );
  let columns = table.header.map((_, column) => column);
  let body = render(columns);
  if (width !== undefined) {
    const ranks = [...new Set((table.dropRanks ?? []).filter((rank): rank is number => rank !== undefined))].sort(
      (left, right) => left - right,
    );
    for (const rank of ranks) {
      if (widest(body) <= width) break;
      columns = columns.filter((column) => table.dropRanks?.[column] !== rank);
      body = render(columns);
    }
    if (widest(body) > width && table.cutLast === true) {
      const last = columns[columns.length - 1] ?? 0;
      const lastWidth = Math.max(...table.rows.map((row) => row[last]?.text.length ?? 0));
      body = render(columns, Math.max(MIN_LAST_WIDTH, lastWidth - (widest(body) - width)));
    }
  }
  return [paint.bold(table.title), body, ...(table.note === undefined ? [] : [paint.dim(table.note)])].join("\n");
}

function widest(text: string): number {
  return Math.max(0, ...text.split("\n").map(visibleLength));
}

function cutText(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, Math.max(0, limit - 1))}…` : text;
}

/** `uwf eval list`: one row per report, newest first, with its samples and pass rate. */
export function renderEvalList(result: EvalListResult, options: { color: boolean }): string {
  const paint = createPalette(options.color);
  if (result.reports.length === 0)
    return result.total === 0 ? "no eval reports" : `no eval reports here (of ${result.total})`;
  const body = formatColumns(
    ["REPORT", "NAME", "CREATED", "SAMPLES", "PASS RATE"].map((header) => paint.dim(header)),
    result.reports.map((report) => [
      report.report,
      report.name,
      report.createdAt.replace("T", " ").replace(/\.\d+Z$|Z$/, ""),
      String(report.samples),
      report.passRate === null ? MISSING : formatRate(report.passRate),
    ]),
    ["left", "left", "left", "right", "right"],
  );
  const more =
    result.total > result.reports.length ? `\n${paint.dim(`${result.reports.length} of ${result.total} reports`)}` : "";
  return body + more;
}

/** `uwf eval diff R1 R2`: each comparison's metrics and the cases that moved. */
export function renderEvalDiff(result: EvalDiffResult, options: { color: boolean }): string {
  const paint = createPalette(options.color);
  const heading = paint.bold(`report ${result.current} against report ${result.baseline} (baseline)`);
  const regressed = result.comparisons[0]?.regressed.length ?? 0;
  const improved = result.comparisons[0]?.improved.length ?? 0;
  const verdict =
    regressed > 0
      ? paint.red(`${regressed} ${regressed === 1 ? "case" : "cases"} regressed`)
      : improved > 0
        ? paint.green(`no case regressed, ${improved} improved`)
        : "no case moved";
  return [
    `${heading}\n${verdict}`,
    ...buildComparisonTables(result.comparisons).map((table) => renderTable(table, paint)),
  ].join("\n\n");
}
