/** Left-aligned columns separated by two spaces; widths count visible characters (colour codes ignored). */
export function formatTable(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => visibleLength(row[column] ?? ""))));
  return all
    .map((row) =>
      row
        .map((cell, column) =>
          column === row.length - 1 ? cell : cell + " ".repeat((widths[column] ?? 0) - visibleLength(cell)),
        )
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI colour codes is the point
const ANSI = /\u001b\[[0-9;]*m/g;

export function visibleLength(text: string): number {
  // Most cells hold no colour code: a table of 1,000 rows (`compare`, `list --limit 0`) measures 8,000 of them.
  return text.includes("\u001b") ? text.replace(ANSI, "").length : text.length;
}
