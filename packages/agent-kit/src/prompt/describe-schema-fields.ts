import type { JsonSchemaObject } from "@uwf/protocol";

/** One field of a role's schema as the output-format section lists it. */
export interface SchemaFieldDescription {
  /** `summary`, `meta.author`, `files[].name`. */
  path: string;
  /** Nesting depth: 0 for top-level fields. */
  depth: number;
  type: string;
  required: boolean;
  /** Allowed values, JSON-encoded, when the schema names them (`enum`, `const`). */
  allowedValues: string[] | null;
  /** Other constraints in words: `at least 1`, `format date-time`, `default "x"`. */
  constraints: string[];
  description: string | null;
}

/** Every field of an object schema, depth first, in the schema's property order. */
export function describeSchemaFields(
  schema: JsonSchemaObject,
  exclude: (name: string, field: JsonSchemaObject) => boolean = () => false,
): SchemaFieldDescription[] {
  const fields: SchemaFieldDescription[] = [];
  collectFields(schema, "", 0, exclude, fields);
  return fields;
}

function collectFields(
  schema: JsonSchemaObject,
  prefix: string,
  depth: number,
  exclude: (name: string, field: JsonSchemaObject) => boolean,
  fields: SchemaFieldDescription[],
): void {
  const properties = asObject(schema.properties) ?? {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  for (const [name, value] of Object.entries(properties)) {
    const field = asObject(value) ?? {};
    if (depth === 0 && exclude(name, field)) continue;
    const path = `${prefix}${name}`;
    fields.push({
      path,
      depth,
      type: describeType(field),
      required: required.has(name),
      allowedValues: allowedValues(field),
      constraints: describeConstraints(field),
      description: typeof field.description === "string" ? field.description.replace(/\s+/g, " ").trim() : null,
    });
    if (asObject(field.properties) !== null) collectFields(field, `${path}.`, depth + 1, exclude, fields);
    const items = asObject(field.items);
    if (items !== null && asObject(items.properties) !== null)
      collectFields(items, `${path}[].`, depth + 1, exclude, fields);
  }
}

/** `string`, `integer or null`, `list of string`, `list of objects`. */
export function describeType(field: JsonSchemaObject): string {
  const types = schemaTypes(field);
  if (types.length === 0) {
    const values = Array.isArray(field.enum) ? field.enum : "const" in field ? [field.const] : null;
    if (values !== null) {
      const kinds = new Set(values.map((value) => (value === null ? "null" : typeof value)));
      return kinds.size === 1 ? [...kinds].join("") : "value";
    }
    if (asObject(field.properties) !== null) return "object";
    return "any";
  }
  return types
    .map((type) => {
      if (type !== "array") return type;
      const items = asObject(field.items);
      if (items === null) return "list";
      const itemType = describeType(items);
      return itemType === "object" ? "list of objects" : `list of ${itemType}`;
    })
    .join(" or ");
}

export function schemaTypes(field: JsonSchemaObject): string[] {
  if (typeof field.type === "string") return [field.type];
  if (Array.isArray(field.type)) return field.type.filter((type): type is string => typeof type === "string");
  return [];
}

function allowedValues(field: JsonSchemaObject): string[] | null {
  if ("const" in field) return [JSON.stringify(field.const)];
  if (Array.isArray(field.enum)) return field.enum.map((value) => JSON.stringify(value));
  return null;
}

const CONSTRAINT_WORDS: ReadonlyArray<[keyword: string, describe: (value: unknown) => string]> = [
  ["minimum", (value) => `at least ${String(value)}`],
  ["exclusiveMinimum", (value) => `more than ${String(value)}`],
  ["maximum", (value) => `at most ${String(value)}`],
  ["exclusiveMaximum", (value) => `less than ${String(value)}`],
  ["minLength", (value) => `at least ${String(value)} characters`],
  ["maxLength", (value) => `at most ${String(value)} characters`],
  ["minItems", (value) => `at least ${String(value)} items`],
  ["maxItems", (value) => `at most ${String(value)} items`],
  ["pattern", (value) => `matching /${String(value)}/`],
  ["format", (value) => `format ${String(value)}`],
  ["default", (value) => `default ${JSON.stringify(value)}`],
];

function describeConstraints(field: JsonSchemaObject): string[] {
  return CONSTRAINT_WORDS.flatMap(([keyword, describe]) => (keyword in field ? [describe(field[keyword])] : []));
}

export function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
