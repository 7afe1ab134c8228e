/** What the reply's `$status` field is called in JSONata: a name in backquotes. */
const QUOTED_STATUS = "`$status`";
/** The previous reply's `$status`, for a `$status` that stands alone. */
const LAST_STATUS = `steps[-1].output.${QUOTED_STATUS}`;
const VARIABLE = "$status";

export interface UnquotedStatus {
  /** How many times the expression reads the unset variable `$status`. */
  count: number;
  /** The expression with each of them quoted, or `` steps[-1].output.`$status` `` when it cannot be rewritten in place. */
  fix: string;
}

interface Occurrence {
  /** Where the variable ends in the source: jsonata's `position`. */
  end: number;
  /** A later step of a path (`output.$status`), where quoting the name is the whole fix. */
  inPath: boolean;
}

/**
 * Finds `$status` read as a JSONata variable in a condition's syntax tree. In JSONata
 * `steps[-1].output.$status` reads the variable `$status`, which nothing sets, so it is undefined and
 * a test such as `= "ok"` never holds; the reply's field is `` steps[-1].output.`$status` ``. An
 * expression that binds `$status` itself (`$status := ...`, a function parameter, `@$status`,
 * `#$status`) means its own variable, so it is left alone. Returns null when there is nothing to report.
 */
export function findUnquotedStatus(source: string, ast: unknown): UnquotedStatus | null {
  const occurrences: Occurrence[] = [];
  let bound = false;
  const seen = new Set<object>();
  const visit = (node: unknown, inPath: boolean): void => {
    if (typeof node !== "object" || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const child of node) visit(child, false);
      return;
    }
    const fields = node as Record<string, unknown>;
    if (fields.focus === "status" || fields.index === "status") bound = true;
    if (fields.type === "bind" && isStatusVariable(fields.lhs)) bound = true;
    if (fields.type === "lambda" && Array.isArray(fields.arguments) && fields.arguments.some(isStatusVariable)) {
      bound = true;
    }
    if (isStatusVariable(node) && typeof fields.position === "number") {
      occurrences.push({ end: fields.position, inPath });
    }
    for (const [key, child] of Object.entries(fields)) {
      if (key === "steps" && fields.type === "path" && Array.isArray(child)) {
        child.forEach((step, index) => {
          visit(step, index > 0);
        });
      } else visit(child, false);
    }
  };
  visit(ast, false);
  if (bound || occurrences.length === 0) return null;
  return { count: occurrences.length, fix: rewrite(source, occurrences) };
}

function isStatusVariable(node: unknown): boolean {
  if (typeof node !== "object" || node === null) return false;
  const fields = node as Record<string, unknown>;
  return fields.type === "variable" && fields.value === "status";
}

/** Quotes each occurrence in place, from the last back, so earlier positions stay valid. */
function rewrite(source: string, occurrences: readonly Occurrence[]): string {
  let fixed = source;
  for (const { end, inPath } of [...occurrences].sort((left, right) => right.end - left.end)) {
    const start = end - VARIABLE.length;
    if (start < 0 || source.slice(start, end) !== VARIABLE) return LAST_STATUS;
    fixed = `${fixed.slice(0, start)}${inPath ? QUOTED_STATUS : LAST_STATUS}${fixed.slice(end)}`;
  }
  return fixed;
}
