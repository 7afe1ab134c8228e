export interface FindValueBoundsProblemOptions {
  /** Mappings and lists inside each other; the top-level one is level 1. */
  maxNesting: number;
  /** Characters of the value written as JSON (about: spacing aside); unlimited when left out. */
  maxSize?: number;
}

export type ValueBoundsProblem = "too-deep" | "too-large";

/**
 * Walks a parsed value without recursion (so no value can overflow the stack) and says which bound
 * it breaks first, or null. Aliases may make a value share parts, or even contain itself; a cycle
 * nests without end, so it is reported as too deep. The walk stops at the first problem, so its
 * cost is bounded by the limits, not by the value.
 */
export function findValueBoundsProblem(
  value: unknown,
  options: FindValueBoundsProblemOptions,
): ValueBoundsProblem | null {
  const maxSize = options.maxSize ?? Number.POSITIVE_INFINITY;
  let size = 0;
  const pending: Array<{ value: unknown; level: number }> = [{ value, level: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const item = next.value;
    if (item !== null && typeof item === "object") {
      const level = next.level + 1;
      if (level > options.maxNesting) return "too-deep";
      if (Array.isArray(item)) {
        size += 2 + Math.max(0, item.length - 1);
        for (const element of item) pending.push({ value: element, level });
      } else {
        const entries = Object.entries(item);
        size += 2 + Math.max(0, entries.length - 1);
        for (const [key, element] of entries) {
          size += key.length + 3;
          pending.push({ value: element, level });
        }
      }
    } else {
      size += scalarSize(item);
    }
    if (size > maxSize) return "too-large";
  }
  return null;
}

function scalarSize(value: unknown): number {
  if (typeof value === "string") return value.length + 2;
  if (value === undefined) return 4;
  return String(value).length;
}
