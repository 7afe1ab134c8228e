/** Whether `value` is a JSON object as parsed JSON or YAML gives one: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
