import { formatTable, visibleLength } from "./format-table.ts";

/**
 * One column of a table that fits a width. What it gives up when the table is too wide, and when, is
 * said by ranks on one scale shared by all the columns: the lowest rank goes first.
 */
export interface FitColumn {
  header: string;
  /** One cell per row. */
  cells: string[];
  /** The same cells said shorter (`11-26 15:29` for `2026-11-26 15:29:01`), used from `compactAt` on. */
  compact?: { at: number; cells: string[] };
  /** From rank `at` on, cells may be cut to `minWidth` characters, ending in `…`, as far as needed. */
  truncate?: { at: number; minWidth: number };
  /** From rank `at` on, the column may be left out. Without it the column always stays. */
  dropAt?: number;
}

/** Two spaces between columns, as formatTable writes them. */
const GAP = 2;

/**
 * The table as formatTable writes it, made to fit `width` characters (no limit when undefined): the
 * columns' ranks are taken in order — a column said shorter, cells cut (only as far as needed, longest
 * first), a column left out — until the rows fit. When even the last rank does not fit, the rows are as
 * narrow as the ranks allow.
 */
export function fitTable(columns: readonly FitColumn[], width: number | undefined): string {
  const render = (shown: FitColumn[]) =>
    formatTable(
      shown.map((column) => column.header),
      transpose(shown.map((column) => column.cells)),
    );
  if (width === undefined) return render([...columns]);
  const ranks = [
    ...new Set(columns.flatMap((column) => [column.compact?.at, column.truncate?.at, column.dropAt]).filter(isNumber)),
  ].sort((left, right) => left - right);
  let shown: FitColumn[] = [...columns];
  for (const rank of [Number.NEGATIVE_INFINITY, ...ranks]) {
    shown = columns
      .filter((column) => column.dropAt === undefined || column.dropAt > rank)
      .map((column) =>
        column.compact !== undefined && column.compact.at <= rank ? { ...column, cells: column.compact.cells } : column,
      );
    const fitted = truncateToFit(shown, width, rank);
    if (fitted !== null) return render(fitted);
  }
  return render(truncateToFit(shown, 0, Number.POSITIVE_INFINITY) ?? shown);
}

/**
 * The columns with the cells of those allowed to be cut at this rank cut just enough to fit `width`,
 * the widest column first; null when cutting all of them to their minimum is not enough.
 */
function truncateToFit(columns: FitColumn[], width: number, rank: number): FitColumn[] | null {
  const widths = columns.map(columnWidth);
  const total = () => widths.reduce((sum, columnWidth) => sum + columnWidth, 0) + GAP * (columns.length - 1);
  const cuttable = (index: number) => {
    const truncate = columns[index]?.truncate;
    return truncate !== undefined && truncate.at <= rank && (widths[index] ?? 0) > truncate.minWidth;
  };
  while (total() > width) {
    let widest = -1;
    for (let index = 0; index < columns.length; index++) {
      if (cuttable(index) && (widest === -1 || (widths[index] ?? 0) > (widths[widest] ?? 0))) widest = index;
    }
    if (widest === -1) return width === 0 ? cut(columns, widths) : null;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  return cut(columns, widths);
}

function cut(columns: FitColumn[], widths: number[]): FitColumn[] {
  return columns.map((column, index) => {
    const limit = widths[index] ?? 0;
    if (columnWidth(column) <= limit) return column;
    return { ...column, cells: column.cells.map((cell) => cutCell(cell, limit)) };
  });
}

/** A cell cut to `limit` visible characters, its last one `…`; colour is dropped from a cell that is cut. */
function cutCell(cell: string, limit: number): string {
  if (visibleLength(cell) <= limit) return cell;
  const plain = Bun.stripANSI(cell);
  return `${plain.slice(0, Math.max(0, limit - 1))}…`;
}

function columnWidth(column: FitColumn): number {
  return Math.max(visibleLength(column.header), ...column.cells.map(visibleLength));
}

function transpose(columns: string[][]): string[][] {
  const rows = Math.max(0, ...columns.map((cells) => cells.length));
  return Array.from({ length: rows }, (_, row) => columns.map((cells) => cells[row] ?? ""));
}

function isNumber(value: number | undefined): value is number {
  return value !== undefined;
}
