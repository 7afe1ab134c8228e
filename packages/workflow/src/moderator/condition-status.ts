/** The newest step's `$status` as a JSONata path: `` steps[-1].output.`$status` ``. */
const STATUS_PATH = String.raw`steps\s*\[\s*-1\s*\]\s*\.\s*output\s*\.\s*\x60\$status\x60`;
const LITERAL = String.raw`(?:"([^"\\]*)"|'([^'\\]*)')`;
const PATH_FIRST = new RegExp(`^\\s*\\(?\\s*${STATUS_PATH}\\s*=\\s*${LITERAL}\\s*\\)?\\s*$`);
const LITERAL_FIRST = new RegExp(`^\\s*\\(?\\s*${LITERAL}\\s*=\\s*${STATUS_PATH}\\s*\\)?\\s*$`);

/**
 * The status a condition tests when that is all it tests — `` steps[-1].output.`$status` = "rejected" ``
 * (either side first) — else null. Such an edge
 * is taken on that status, like a map-form edge, so its prompt may read that status's fields.
 */
export function conditionStatus(expression: string): string | null {
  const match = PATH_FIRST.exec(expression) ?? LITERAL_FIRST.exec(expression);
  if (match === null) return null;
  return match[1] ?? match[2] ?? null;
}
