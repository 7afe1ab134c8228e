import type { OutputUnit, Schema, Validator } from "@cfworker/json-schema";
import { type JsonSchemaObject, messageOf } from "@uwf/protocol";
import { InvalidOutputSchemaError } from "../errors/invalid-output-schema-error.ts";
import { describeValue } from "./describe-value.ts";

export type ValidateOutputFieldsResult = { success: true } | { success: false; problem: string };

const MAX_PROBLEMS = 10;
const validators = new Map<string, Validator>();

/**
 * Validates reported fields against a JSON Schema. The problem names every failing field with what
 * was expected and what came: `field "approved": expected boolean, got string "yes"`.
 *
 * Every step is a new process that validates one reply, so this uses an interpreting validator
 * (@cfworker/json-schema): Ajv's code generation cost ten times more than the validation itself.
 * Schemas are checked as JSON Schema (with Ajv) when the workflow is loaded, not here.
 */
export function validateOutputFields(
  fields: Record<string, unknown>,
  schema: JsonSchemaObject,
): ValidateOutputFieldsResult {
  const result = validatorFor(schema).validate(fields);
  if (result.valid) return { success: true };
  const messages = [...new Set(result.errors.flatMap((error) => describeError(error, fields, schema)))];
  if (messages.length === 0) return { success: false, problem: "the fields do not match the schema" };
  const shown = messages.slice(0, MAX_PROBLEMS);
  const more = messages.length - shown.length;
  return { success: false, problem: more > 0 ? `${shown.join("; ")}; and ${more} more` : shown.join("; ") };
}

function validatorFor(schema: JsonSchemaObject): Validator {
  const key = JSON.stringify(schema);
  const cached = validators.get(key);
  if (cached !== undefined) return cached;
  let validator: Validator;
  try {
    // Loaded on first use, not at import: most commands never validate a reply. Draft 7, as the
    // workflow loader checks schemas with Ajv's default (draft-07) meta-schema.
    const { Validator: ValidatorClass } = require("@cfworker/json-schema") as typeof import("@cfworker/json-schema");
    validator = new ValidatorClass(schema as Schema, "7", false);
  } catch (error) {
    throw new InvalidOutputSchemaError(messageOf(error), error);
  }
  validators.set(key, validator);
  return validator;
}

/** Keywords whose failure only says that something below failed; the errors below say what. */
const WRAPPER_KEYWORDS = new Set(["properties", "items", "prefixItems", "allOf", "$ref", "false", "additionalItems"]);

function describeError(error: OutputUnit, fields: Record<string, unknown>, schema: JsonSchemaObject): string[] {
  if (WRAPPER_KEYWORDS.has(error.keyword)) return [];
  const segments = parsePointer(error.instanceLocation);
  const instance = valueAt(fields, segments);
  const got = describeValue(instance);
  const keywordValue = valueAt(schema, parsePointer(error.keywordLocation));
  switch (error.keyword) {
    case "required": {
      const required = Array.isArray(keywordValue) ? keywordValue.map(String) : [];
      const present = instance !== null && typeof instance === "object" ? instance : {};
      return required
        .filter((name) => !Object.hasOwn(present, name))
        .map((name) => `missing required field "${formatPath([...segments, name])}"`);
    }
    case "type":
      return [`${fieldLabel(segments)}expected ${formatTypes(keywordValue)}, got ${got}`];
    case "enum":
      return [`${fieldLabel(segments)}expected one of ${formatValues(keywordValue)}, got ${got}`];
    case "const":
      return [`${fieldLabel(segments)}expected ${JSON.stringify(keywordValue)}, got ${got}`];
    case "additionalProperties": {
      const name = /Property "(.*)" does not match/s.exec(error.error)?.[1] ?? "?";
      return [`${fieldLabel(segments)}unexpected field "${name}"`];
    }
    default:
      return [`${fieldLabel(segments)}${error.error.replace(/\.$/, "")} (${error.keyword}), got ${got}`];
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

/** `#/files/0` (or `/files/0`) → `["files", "0"]`. */
function parsePointer(pointer: string): string[] {
  const path = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (path === "") return [];
  return path
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
