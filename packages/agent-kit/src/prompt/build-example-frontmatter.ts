import type { JsonSchemaObject } from "@uwf/protocol";
import { formatYaml } from "@uwf/workflow";
import { asObject, schemaTypes } from "./describe-schema-fields.ts";

/**
 * The YAML lines of an example frontmatter for a schema: every field with a
 * value that fits it (the schema's own example, default or const, an enum's
 * choices as `<a | b>`, else a placeholder), optional fields marked `# optional`.
 */
export function buildExampleFrontmatter(
  schema: JsonSchemaObject,
  include: (name: string) => boolean = () => true,
): string {
  const properties = asObject(schema.properties) ?? {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const blocks: string[] = [];
  for (const [name, value] of Object.entries(properties)) {
    if (!include(name)) continue;
    const lines = formatYaml({ [name]: exampleValue(asObject(value) ?? {}, name) })
      .trimEnd()
      .split("\n");
    if (!required.has(name)) lines[0] = `${lines[0]}  # optional`;
    blocks.push(lines.join("\n"));
  }
  return blocks.join("\n");
}

/** A value valid for a field schema, as far as a placeholder can be (an enum's is its choices). */
export function exampleValue(field: JsonSchemaObject, name: string): unknown {
  if (Array.isArray(field.examples) && field.examples.length > 0) return field.examples[0];
  if ("default" in field) return field.default;
  if ("const" in field) return field.const;
  if (Array.isArray(field.enum) && field.enum.length === 1) return field.enum[0];
  // Every choice named: an example that picked the first would nudge a model toward it.
  if (Array.isArray(field.enum) && field.enum.length > 1) return `<${field.enum.map(String).join(" | ")}>`;
  const types = schemaTypes(field);
  const type = types.find((candidate) => candidate !== "null") ?? types[0];
  switch (type) {
    case "boolean":
      return true;
    case "integer":
    case "number":
      return typeof field.minimum === "number" ? field.minimum : 0;
    case "null":
      return null;
    case "array": {
      const items = asObject(field.items);
      return items === null ? [`<${name} item>`] : [exampleValue(items, `${name} item`)];
    }
    case "object": {
      const example: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(asObject(field.properties) ?? {})) {
        example[key] = exampleValue(asObject(value) ?? {}, key);
      }
      return example;
    }
    default:
      if (asObject(field.properties) !== null) return exampleValue({ ...field, type: "object" }, name);
      return `<${name}>`;
  }
}
