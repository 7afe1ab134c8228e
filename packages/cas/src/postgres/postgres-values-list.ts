/**
 * `($1, $2, $3), ($4, $5, $6), ...`: the VALUES rows of a multi-row statement, `columns` parameters
 * each. Batches are cut to BATCH_ROWS so a statement stays far below the protocol's 65,535 parameters.
 */
export function postgresValuesList(rows: number, columns: number): string {
  const list: string[] = [];
  for (let row = 0; row < rows; row++) {
    const parameters: string[] = [];
    for (let column = 0; column < columns; column++) parameters.push(`$${row * columns + column + 1}`);
    list.push(`(${parameters.join(", ")})`);
  }
  return list.join(", ");
}

/** Rows per multi-row statement. */
export const BATCH_ROWS = 1000;

/** `items` in slices of at most BATCH_ROWS. */
export function* inBatches<Item>(items: readonly Item[]): Generator<readonly Item[]> {
  for (let start = 0; start < items.length; start += BATCH_ROWS) yield items.slice(start, start + BATCH_ROWS);
}
