import { canonicalizeJson } from "@uwf/cas";
import type { FuncKeywordDefinition, SchemaValidateFunction } from "ajv";

/**
 * `uniqueItems` checked in one pass, for the Ajv instance that checks workflow schemas. Ajv's own
 * compares every pair of items whose type it does not know, and the draft-07 meta-schema declares
 * `enum` as such an array: a 120,000-value enum took minutes to check. Here each item has a key
 * (a scalar itself, anything else its canonical JSON text), so equal values collide in a map.
 * The error is Ajv's own, so messages do not change.
 */
export const linearUniqueItems: FuncKeywordDefinition = {
  keyword: "uniqueItems",
  type: "array",
  schemaType: "boolean",
  errors: true,
  validate: checkUniqueItems,
};

function checkUniqueItems(required: unknown, items: unknown): boolean {
  const validate = checkUniqueItems as SchemaValidateFunction;
  delete validate.errors;
  if (required !== true || !Array.isArray(items)) return true;
  // Scalars are their own keys (a Map tells 1 from "1"); objects and arrays go by their canonical text.
  const firstIndexOfScalar = new Map<unknown, number>();
  const firstIndexOfText = new Map<string, number>();
  for (let index = 0; index < items.length; index++) {
    const item: unknown = items[index];
    const isScalar = item === null || typeof item !== "object";
    const key = isScalar ? item : keyOf(item);
    if (key === null && !isScalar) continue;
    const seen = isScalar ? firstIndexOfScalar : (firstIndexOfText as Map<unknown, number>);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      validate.errors = [
        {
          keyword: "uniqueItems",
          message: `must NOT have duplicate items (items ## ${earlier} and ${index} are identical)`,
          params: { i: index, j: earlier },
        },
      ];
      return false;
    }
    seen.set(key, index);
  }
  return true;
}

/** An object's or array's canonical JSON text; null for one JSON cannot hold (`.inf` inside), which is refused elsewhere. */
function keyOf(item: object): string | null {
  try {
    return canonicalizeJson(item);
  } catch {
    return null;
  }
}
