import type { EvalFieldSummary, EvalSample } from "@uwf/protocol";

/** How many distinct values a categorical field lists before counting the rest as `other`. */
export const FIELD_VALUES_SHOWN = 10;

/**
 * The fields of the samples' final replies, by name: a field whose every value (among the samples that
 * have it) is a number is numeric (count, min, mean, max); any other is categorical, its values as JSON
 * text, most frequent first (ties in the order the values were first seen), the first 10 listed and the
 * rest counted as `other`. A sample without the field is not counted for it.
 */
export function summarizeFields(samples: readonly EvalSample[]): EvalFieldSummary[] {
  const valuesByField = new Map<string, unknown[]>();
  for (const sample of samples) {
    for (const [field, value] of Object.entries(sample.final)) {
      if (value === undefined) continue;
      const values = valuesByField.get(field);
      if (values === undefined) valuesByField.set(field, [value]);
      else values.push(value);
    }
  }
  return [...valuesByField.keys()]
    .sort(compareText)
    .map((field) => summarizeField(field, valuesByField.get(field) ?? []))
    .filter((summary): summary is EvalFieldSummary => summary !== null);
}

function summarizeField(field: string, values: unknown[]): EvalFieldSummary | null {
  if (values.length === 0) return null;
  if (values.every((value): value is number => typeof value === "number" && Number.isFinite(value))) {
    const numbers = values as number[];
    return {
      field,
      kind: "numeric",
      count: numbers.length,
      min: Math.min(...numbers),
      mean: numbers.reduce((sum, value) => sum + value, 0) / numbers.length,
      max: Math.max(...numbers),
    };
  }
  const counts = new Map<string, number>();
  for (const value of values) {
    const text = JSON.stringify(value) ?? String(value);
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  // Map keeps first-seen order and sort is stable: ties stay in the order they were first seen.
  const ranked = [...counts].sort((left, right) => right[1] - left[1]);
  const shown = ranked.slice(0, FIELD_VALUES_SHOWN);
  return {
    field,
    kind: "categorical",
    values: shown.map(([value, count]) => ({ value, count })),
    other: ranked.slice(FIELD_VALUES_SHOWN).reduce((sum, [, count]) => sum + count, 0),
  };
}

/** Code-unit order, the same on every machine and locale. */
export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
