import type { CompareResult, CompareRow } from "@uwf/protocol";
import { type FitColumn, fitTable } from "../table/fit-table.ts";
import { createPalette } from "../text/create-palette.ts";
import { formatDuration } from "../text/format-duration.ts";
import { describeOutcome } from "../thread/format-step-result.ts";
import { threadStatusPaint } from "../thread/thread-status-paint.ts";

export interface FormatCompareOptions {
  /** The terminal's width: columns are cut or left out to fit it (`--wide`: undefined, all). */
  width?: number;
}

/**
 * `uwf compare` as a table: the original first, then each fork, indented under its parent in family
 * order. PARTS AT is the first step where a fork leaves the original (`2 reviewer`, `replaced` for a
 * counterfactual reply); STEPS counts its chain's steps (inherited ones too, as `tree` and `show` do), TAKEN
 * the ones it ran itself (countChainSteps: a replaced reply is not one); COST, TOKENS and DURATION count
 * its own runs, from its fork point.
 * On a narrow terminal OUTCOME and PARTS AT are cut first, then TOKENS, DURATION and STATUS's detail go.
 */
export function formatCompare(result: CompareResult, color: boolean, options: FormatCompareOptions = {}): string {
  const paint = createPalette(color);
  if (result.rows.length === 0) {
    return `no thread holds ${result.at?.address ?? result.reference}, and no fork was made at it`;
  }
  const statusColor = threadStatusPaint(paint);
  const rows = result.rows;
  const cells = (cell: (row: CompareRow) => string) => rows.map(cell);
  const indent = (row: CompareRow) => (result.sort === null ? "  ".repeat(row.depth) : "");
  const columns: FitColumn[] = [
    { header: "THREAD", cells: cells((row) => indent(row) + row.thread) },
    {
      header: "STATUS",
      cells: cells(
        (row) =>
          (statusColor[row.status] ?? String)(row.status) +
          (row.failure === undefined ? "" : paint.dim(` (${row.failure})`)),
      ),
      truncate: { at: 4, minWidth: "suspended".length },
    },
    {
      header: "OUTCOME",
      cells: cells((row) => (row.outcome === undefined ? "" : describeOutcome(row.outcome))),
      truncate: { at: 1, minWidth: 8 },
    },
    {
      header: "PARTS AT",
      cells: cells((row) => partsAt(row, result, paint.dim)),
      truncate: { at: 2, minWidth: 8 },
    },
    { header: "STEPS", cells: cells((row) => String(row.stepCount)) },
    { header: "TAKEN", cells: cells((row) => String(row.ownSteps)), dropAt: 4 },
    { header: "COST", cells: cells((row) => `$${row.usage.costUsd.toFixed(4)}`) },
    { header: "TOKENS", cells: cells((row) => groupThousands(row.tokens)), dropAt: 3 },
    {
      header: "DURATION",
      cells: cells((row) => (row.durationMs === null ? "" : formatDuration(row.durationMs))),
      dropAt: 5,
    },
  ];
  return fitTable(columns, options.width);
}

/** `original`, `2 reviewer`, `2 reviewer replaced`, or `-` for a fork with no step the original lacks. */
function partsAt(row: CompareRow, result: CompareResult, dim: (text: string) => string): string {
  if (row.thread === result.original) return dim("original");
  if (row.parts === null) return dim("-");
  return `${row.parts.step} ${row.parts.role}${row.parts.replaced ? dim(" replaced") : ""}`;
}

/**
 * `12,345`: as `toLocaleString("en-US")` writes an integer, without loading the ICU data that costs a
 * fresh process tens of milliseconds on its first call.
 */
function groupThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
