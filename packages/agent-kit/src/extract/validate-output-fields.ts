import type { JsonSchemaObject } from "@uwf/protocol";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { describeValue } from "./describe-value.ts";
import { InvalidOutputSchemaError } from "./invalid-output-schema-error.ts";

export type ValidateOutputFieldsResult = { success: true } | { success: false; problem: string };

const MAX_PROBLEMS = 10;
const validators = new Map<string, ValidateFunction>();
let ajv: Ajv | undefined;

/**
 * Validates reported fields against a JSON Schema. Each distinct schema is
 * compiled once per process. The problem names every failing field with what
 * was expected and what came: `field "approved": expected boolean, got string "yes"`.
 */
export function validateOutputFields(
  fields: Record<string, unknown>,
  schema: JsonSchemaObject,
): ValidateOutputFieldsResult {
  const validate = compileSchema(schema);
  if (validate(fields)) return { success: true };
  const messages = [...new Set((validate.errors ?? []).flatMap((error) => describeError(error, fields)))];
  if (messages.length === 0) return { success: false, problem: "the fields do not match the schema" };
  const shown = messages.slice(0, MAX_PROBLEMS);
  const more = messages.length - shown.length;
  return { success: false, problem: more > 0 ? `${shown.join("; ")}; and ${more} more` : shown.join("; ") };
}

function compileSchema(schema: JsonSchemaObject): ValidateFunction {
  const key = JSON.stringify(schema);
  const cached = validators.get(key);
  if (cached !== undefined) return cached;
  let validate: ValidateFunction;
  try {
    validate = getAjv().compile(schema);
  } catch (error) {
    throw new InvalidOutputSchemaError(error instanceof Error ? error.message : String(error), error);
  }
  validators.set(key, validate);
  return validate;
}

function getAjv(): Ajv {
  if (ajv === undefined) {
    // Loaded on first use, not at import: ajv costs tens of milliseconds and most commands never validate a reply.
    const { Ajv: AjvClass } = require("ajv") as typeof import("ajv");
    // The schema was checked against the JSON Schema meta-schema when the workflow was loaded; compiling that
    // meta-schema again here would cost most of a step's time (about 70 ms), so it is not re-validated.
    ajv = new AjvClass({ allErrors: true, strict: false, logger: false, validateSchema: false });
  }
  return ajv;
}

function describeError(error: ErrorObject, fields: Record<string, unknown>): string[] {
  const segments = parsePointer(error.instancePath);
  const got = describeValue(valueAt(fields, segments));
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return [`missing required field "${formatPath([...segments, String(params.missingProperty)])}"`];
    case "type":
      return [`${fieldLabel(segments)}expected ${formatTypes(params.type)}, got ${got}`];
    case "enum":
      return [`${fieldLabel(segments)}expected one of ${formatValues(params.allowedValues)}, got ${got}`];
    case "const":
      return [`${fieldLabel(segments)}expected ${JSON.stringify(params.allowedValue)}, got ${got}`];
    case "additionalProperties":
      return [`${fieldLabel(segments)}unexpected field "${String(params.additionalProperty)}"`];
    // Their sub-errors say more; `if` only repeats `then`/`else`.
    case "if":
      return [];
    default:
      return [`${fieldLabel(segments)}${error.message ?? `fails "${error.keyword}"`}, got ${got}`];
  }
}

function fieldLabel(segments: string[]): string {
  return segments.length === 0 ? "the fields: " : `field "${formatPath(segments)}": `;
}

/** `["files", "0", "name"]` → `files[0].name`. */
function formatPath(segments: string[]): string {
  let path = "";
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else path += path === "" ? segment : `.${segment}`;
  }
  return path;
}

function formatTypes(types: unknown): string {
  const list = Array.isArray(types) ? types : String(types).split(",");
  return list.join(" or ");
}

function formatValues(values: unknown): string {
  return Array.isArray(values) ? values.map((value) => JSON.stringify(value)).join(", ") : JSON.stringify(values);
}

function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function valueAt(root: unknown, segments: string[]): unknown {
  let value = root;
  for (const segment of segments) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
