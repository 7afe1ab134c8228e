import type { JsonSchemaObject } from "@uwf/protocol";

export interface DeclaredInputs {
  /** The inputs the workflow's `inputs:` schema names, in its order. */
  names: string[];
  /** The inputs every thread has: required ones, and those with a `default`. */
  required: string[];
}

/** What a workflow's `inputs:` schema declares; null when the workflow declares no inputs. */
export function declaredInputs(schema: JsonSchemaObject | undefined): DeclaredInputs | null {
  if (schema === undefined) return null;
  const properties = schema.properties;
  const names =
    properties !== null && typeof properties === "object" && !Array.isArray(properties) ? Object.keys(properties) : [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  for (const name of names) {
    const field = (properties as Record<string, unknown>)[name];
    if (field !== null && typeof field === "object" && "default" in field) required.add(name);
  }
  return { names, required: [...required] };
}
