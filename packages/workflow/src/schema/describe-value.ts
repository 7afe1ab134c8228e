const SHOWN_CHARACTERS = 80;

/** A short, typed rendering of a value for problem messages: `string "yes"`, `number 3`, `an array of 2 items`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    const shown = value.length > SHOWN_CHARACTERS ? `${value.slice(0, SHOWN_CHARACTERS)}…` : value;
    return `string ${JSON.stringify(shown)}`;
  }
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return `an array of ${value.length} ${value.length === 1 ? "item" : "items"}`;
  if (value instanceof Date) return `a date ${value.toISOString()}`;
  if (typeof value === "object") return "an object";
  return typeof value;
}
