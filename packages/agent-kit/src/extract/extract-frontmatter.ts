import type { JsonSchemaObject } from "@uwf/protocol";
import { parseDocument } from "yaml";
import { withStatusFields } from "./build-reply-schema.ts";
import { describeValue } from "./describe-value.ts";
import { InvalidReplyError } from "./invalid-reply-error.ts";
import { parseSimpleYamlMapping } from "./simple-yaml.ts";
import { splitFrontmatter } from "./split-frontmatter.ts";
import { REASON_FIELD, STATUS_FIELD, SUSPEND_STATUS } from "./status-fields.ts";
import { validateOutputFields } from "./validate-output-fields.ts";

export type ExtractFrontmatterResult =
  | { success: true; fields: Record<string, unknown>; body: string }
  | { success: false; problem: string };

/**
 * Reads the YAML frontmatter at the start of an agent reply and validates it.
 *
 * Only the schema's `properties` are kept, plus `$status` and `reason`, which
 * every role may report. `$status: $SUSPEND` needs a string `reason` and lifts
 * the schema's top-level `required` (a role that stops has nothing to report
 * yet). A reply without frontmatter is accepted as a plain body only when the
 * schema declares no fields at all. Never throws for a bad reply: the problem is a
 * sentence to send back to the agent.
 */
export function extractFrontmatter(reply: string, schema: JsonSchemaObject | undefined): ExtractFrontmatterResult {
  const roleSchema = schema ?? { type: "object" };
  const replySchema = withStatusFields(roleSchema);
  const split = splitFrontmatter(reply);
  if (!split.success) {
    if (reportsNothing(roleSchema) && !reply.trimStart().startsWith("---")) {
      return {
        success: true,
        fields: {},
        body: reply
          .replace(/^\uFEFF/, "")
          .replace(/\r\n?/g, "\n")
          .trim(),
      };
    }
    return split;
  }

  const parsed = parseFields(split.yaml, split.firstLine);
  if (!parsed.success) return parsed;
  const properties = replySchema.properties as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed.fields)) if (Object.hasOwn(properties, name)) fields[name] = value;

  const unsafe = findNonJsonValue(fields, []);
  if (unsafe !== null) return { success: false, problem: unsafe };

  let checkedSchema = replySchema;
  if (fields[STATUS_FIELD] === SUSPEND_STATUS) {
    const reason = fields[REASON_FIELD];
    if (typeof reason !== "string" || reason.trim() === "") {
      return {
        success: false,
        problem: `"${STATUS_FIELD}: ${SUSPEND_STATUS}" needs a "${REASON_FIELD}" field: a string saying why you stop and what you need, got ${describeValue(reason)}`,
      };
    }
    const { required: _required, ...withoutRequired } = replySchema;
    checkedSchema = withoutRequired;
  }
  const validation = validateOutputFields(fields, checkedSchema);
  if (!validation.success) return validation;
  return { success: true, fields, body: split.body };
}

/** `extractFrontmatter`, throwing `InvalidReplyError` (which keeps the reply) instead of returning the problem. */
export function extractFrontmatterOrThrow(
  reply: string,
  schema: JsonSchemaObject | undefined,
): { fields: Record<string, unknown>; body: string } {
  const result = extractFrontmatter(reply, schema);
  if (!result.success) throw new InvalidReplyError(result.problem, reply);
  return { fields: result.fields, body: result.body };
}

type ParseFieldsResult = { success: true; fields: Record<string, unknown> } | { success: false; problem: string };

function parseFields(yaml: string, firstLine: number): ParseFieldsResult {
  const simple = parseSimpleYamlMapping(yaml);
  if (simple !== undefined) return { success: true, fields: simple };
  const document = parseDocument(yaml, { prettyErrors: true });
  const error = document.errors[0];
  if (error !== undefined) {
    const line = (error.linePos?.[0].line ?? 1) + firstLine - 1;
    const reason = error.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "") ?? error.code;
    return { success: false, problem: `the frontmatter is not valid YAML (line ${line} of the reply): ${reason}` };
  }
  const value: unknown = document.toJS();
  if (value === null || value === undefined) return { success: true, fields: {} };
  if (typeof value !== "object" || Array.isArray(value) || value instanceof Map) {
    return {
      success: false,
      problem: `the frontmatter must be YAML "field: value" lines, got ${describeValue(value)}`,
    };
  }
  return { success: true, fields: value as Record<string, unknown> };
}

/** A role that declares no fields may answer in plain markdown. */
function reportsNothing(schema: JsonSchemaObject): boolean {
  const properties = schema.properties;
  const declared = properties !== null && typeof properties === "object" ? Object.keys(properties).length : 0;
  const required = Array.isArray(schema.required) ? schema.required.length : 0;
  return declared === 0 && required === 0;
}

/** Fields are stored as JSON: `.inf`, `.nan`, dates and binaries have no JSON form. */
function findNonJsonValue(value: unknown, path: string[]): string | null {
  const field = path.join(".");
  if (value === null || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number") {
    return Number.isFinite(value) ? null : `field "${field}": expected a finite number, got ${String(value)}`;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const problem = findNonJsonValue(item, [...path.slice(0, -1), `${path.at(-1) ?? ""}[${index}]`]);
      if (problem !== null) return problem;
    }
    return null;
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      const problem = findNonJsonValue(item, [...path, key]);
      if (problem !== null) return problem;
    }
    return null;
  }
  return `field "${field}": expected a JSON value (text, number, boolean, list or mapping), got ${describeValue(value)}`;
}
