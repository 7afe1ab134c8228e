/** How a column's cells line up: text to the left, numbers to the right. */
export type ColumnAlign = "left" | "right";

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI colour codes is the point
const ANSI = /\u001b\[[0-9;]*m/g;

/** The characters a cell shows, colour codes left out. */
export function visibleLength(text: string): number {
  return text.replace(ANSI, "").length;
}

/**
 * Columns two spaces apart, each as wide as its widest cell (colour codes not counted), aligned as
 * `align` says (left when not said), with trailing spaces trimmed: the CLI's table layout, plus numbers
 * to the right.
 */
export function formatColumns(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly ColumnAlign[] = [],
): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => visibleLength(row[column] ?? ""))));
  return all
    .map((row) =>
      header
        .map((_, column) => {
          const cell = row[column] ?? "";
          const padding = " ".repeat((widths[column] ?? 0) - visibleLength(cell));
          return align[column] === "right" ? padding + cell : cell + padding;
        })
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
