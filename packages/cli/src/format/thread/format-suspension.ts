import type { SuspensionView } from "@uwf/protocol";

/**
 * A suspension for a person, one line each: what the role sent (`ask`), the answer's fields (name,
 * type, required) and the command that answers it, ready to paste.
 */
export function formatSuspension(thread: string, view: SuspensionView): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(view.ask)) lines.push(`  ${name}: ${formatValue(value)}`);
  if (view.answerSchema === null) {
    lines.push(`answer with: uwf resume ${thread} -p "ANSWER"`);
    return lines;
  }
  lines.push("the answer's fields:");
  for (const field of describeAnswerFields(view.answerSchema)) {
    const details = [field.type, ...(field.required ? ["required"] : [])].join(", ");
    lines.push(`  ${field.name} (${details})${field.description === null ? "" : ` — ${field.description}`}`);
  }
  lines.push(`answer with: uwf resume ${thread} --answer '${JSON.stringify(exampleAnswer(view.answerSchema))}'`);
  return lines;
}

/** The command that answers a suspension, for a note on stderr: `-p "ANSWER"`, or `--answer` with an example. */
export function resumeLine(thread: string, answerSchema: Record<string, unknown> | null): string {
  return answerSchema === null
    ? `uwf resume ${thread} -p "ANSWER"`
    : `uwf resume ${thread} --answer '${JSON.stringify(exampleAnswer(answerSchema))}'`;
}

interface AnswerField {
  name: string;
  type: string;
  required: boolean;
  description: string | null;
}

/** The top-level fields of an answer schema, in its order. */
export function describeAnswerFields(schema: Record<string, unknown>): AnswerField[] {
  const properties = asObject(schema.properties) ?? {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(properties).map(([name, value]) => {
    const field = asObject(value) ?? {};
    const type = Array.isArray(field.enum)
      ? `one of ${field.enum.map((item) => JSON.stringify(item)).join(", ")}`
      : field.type === undefined
        ? "any"
        : String(field.type);
    const description = typeof field.description === "string" ? field.description : null;
    return { name, type, required: required.has(name), description };
  });
}

/** An answer with every required field filled with a value of its type (the first `enum` value, `true`, `"…"`). */
export function exampleAnswer(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = asObject(schema.properties) ?? {};
  const required = Array.isArray(schema.required) ? schema.required.map(String) : Object.keys(properties);
  const example: Record<string, unknown> = {};
  for (const name of required) example[name] = exampleValue(asObject(properties[name]) ?? {});
  return example;
}

function exampleValue(field: Record<string, unknown>): unknown {
  if ("const" in field) return field.const;
  if (Array.isArray(field.enum) && field.enum.length > 0) return field.enum[0];
  const type = Array.isArray(field.type) ? field.type[0] : field.type;
  switch (type) {
    case "boolean":
      return true;
    case "integer":
    case "number":
      return 1;
    case "array":
      return [];
    case "object":
      return {};
    case "null":
      return null;
    default:
      return "...";
  }
}

function formatValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
