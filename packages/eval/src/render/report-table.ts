import type { ColumnAlign } from "./format-columns.ts";

/** How a cell is meant: good news, bad news, a warning, or beside the point; each renderer shows it its way. */
export type Tone = "good" | "bad" | "warn" | "dim";

/** One cell: its text, its tone, and whether it is an identifier (a thread id: a code span in Markdown). */
export interface Cell {
  text: string;
  tone?: Tone;
  code?: boolean;
}

/** A table of a report, said once and rendered as terminal columns or as GitHub-flavoured Markdown. */
export interface ReportTable {
  title: string;
  header: string[];
  align: ColumnAlign[];
  rows: Cell[][];
  /** A line under the table (`… and 12 more`). */
  note?: string;
  /**
   * On a narrow terminal: per column, the rank at which it may be left out (lowest first; undefined: it
   * stays). Markdown keeps every column.
   */
  dropRanks?: (number | undefined)[];
  /** On a narrow terminal, the last column's cells may be cut (ending in `…`) to fit. */
  cutLast?: boolean;
}

/** A plain cell. */
export function cell(text: string, tone?: Tone): Cell {
  return tone === undefined ? { text } : { text, tone };
}
