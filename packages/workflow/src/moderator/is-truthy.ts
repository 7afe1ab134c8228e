/**
 * DESIGN §2's truthiness of a condition's value: `false`, `null`, `undefined`, `0`, `NaN`
 * and `""` are false; everything else, including `[]` and `{}`, is true. (Not JSONata's
 * `$boolean`, which calls empty arrays false: a condition that finds an empty list found something.)
 */
export function isTruthy(value: unknown): boolean {
  if (value === false || value === null || value === undefined || value === "") return false;
  if (typeof value === "number") return value !== 0 && !Number.isNaN(value);
  return true;
}
