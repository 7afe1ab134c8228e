import { isObject } from "@uwf/protocol";

/** The types a JSON body's field is checked against. */
export type BodyFieldType = "string" | "boolean" | "positive integer" | "object";

/**
 * The body's fields that are missing though `required`, or present but not of the type given: a message
 * naming the first, or null. A route checks what its command could misread; the command checks the rest.
 */
export function checkBodyFields(
  body: Record<string, unknown>,
  types: Record<string, BodyFieldType>,
  required: readonly string[] = [],
): string | null {
  for (const field of required) {
    const value = body[field];
    if (value === undefined || value === null || value === "") return `the body's "${field}" is required`;
  }
  for (const [field, type] of Object.entries(types)) {
    const value = body[field];
    if (value === undefined) continue;
    if (!hasType(value, type)) return `the body's "${field}" must be ${type === "object" ? "an" : "a"} ${type}`;
  }
  return null;
}

function hasType(value: unknown, type: BodyFieldType): boolean {
  if (type === "positive integer") return typeof value === "number" && Number.isInteger(value) && value > 0;
  if (type === "object") return isObject(value);
  return typeof value === type;
}
