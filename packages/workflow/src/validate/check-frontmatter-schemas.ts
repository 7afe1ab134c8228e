import { type JsonSchemaObject, messageOf, type WorkflowNode } from "@uwf/protocol";
import type { Ajv, ErrorObject } from "ajv";
import type { FieldPath } from "../issue/field-path.ts";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";
import { enforcedFormats } from "./enforced-formats.ts";
import { linearUniqueItems } from "./linear-unique-items.ts";

/**
 * Each role's `frontmatter`, `ask` and `answer` (unless `approval`), and the workflow's `inputs`, must be a JSON Schema that Ajv accepts: valid against the
 * meta-schema, and compilable in strict mode (which catches typos such as `requried`).
 * `format` must be one the run-time check enforces (`enforcedFormats`); any other is an error
 * naming it and the supported ones, since a reply would never be held to it.
 */
export function checkFrontmatterSchemas(workflow: WorkflowNode): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const ajv = createSchemaChecker();
  for (const [role, definition] of Object.entries(workflow.roles)) {
    const schema = definition.frontmatter;
    if (schema !== undefined)
      issues.push(...checkObjectSchema(ajv, schema, ["roles", role, "frontmatter"], "a role reports fields"));
    // What a role sends when it suspends, and the answer a person gives it, are fields too.
    if (definition.ask !== undefined)
      issues.push(...checkObjectSchema(ajv, definition.ask, ["roles", role, "ask"], "a role asks with fields"));
    if (definition.answer !== undefined && definition.answer !== "approval")
      issues.push(...checkObjectSchema(ajv, definition.answer, ["roles", role, "answer"], "an answer is named fields"));
  }
  // The start inputs are a map of names to values, declared the same way.
  if (workflow.inputs !== undefined) {
    issues.push(...checkObjectSchema(ajv, workflow.inputs, ["inputs"], "inputs are named values"));
  }
  return issues;
}

function checkObjectSchema(ajv: Ajv, schema: JsonSchemaObject, base: FieldPath, why: string): WorkflowIssue[] {
  if (schema.type !== undefined && schema.type !== "object") {
    return [{ severity: "error", path: [...base, "type"], message: `${why}, so the type is "object"` }];
  }
  if (!ajv.validateSchema(schema)) {
    return onePerPath(ajv.errors ?? []).map((error) => ({
      severity: "error",
      path: [...base, ...pointerSegments(error.instancePath)],
      message: `invalid JSON Schema: ${describeMetaError(error)}`,
    }));
  }
  const message = compileError(ajv, schema);
  if (message === null) return [];
  const format = unknownFormat(message);
  if (format !== null) return [{ severity: "error", path: [...base, ...format.path], message: format.message }];
  const keyword = /unknown keyword: "([^"]+)"/.exec(message)?.[1];
  const where = keyword === undefined ? [] : (findKey(schema, keyword) ?? []);
  return [{ severity: "error", path: [...base, ...where], message: `invalid JSON Schema: ${message}` }];
}

let schemaChecker: Ajv | undefined;

/**
 * One checker per process: Ajv compiles the meta-schema on first use, which costs more than
 * checking a workflow. Loaded on first use, not at import, so `uwf --version` never pays for it.
 */
function createSchemaChecker(): Ajv {
  if (schemaChecker !== undefined) return schemaChecker;
  const { Ajv: AjvClass } = require("ajv") as typeof import("ajv");
  schemaChecker = new AjvClass({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    // Known formats are declared, not implemented: Ajv only compiles here, and strict mode reports any other.
    validateFormats: true,
    formats: Object.fromEntries(enforcedFormats().map((name) => [name, true])),
    logger: false,
  });
  // The meta-schema's `enum` is an array of anything that must be unique: Ajv compares every pair.
  schemaChecker.removeKeyword("uniqueItems").addKeyword(linearUniqueItems);
  return schemaChecker;
}

/**
 * Compiles in strict mode; null when it compiles. Extension keywords (`x-...`) are
 * declared as they are met rather than reported, as JSON Schema allows them.
 */
function compileError(ajv: Ajv, schema: object): string | null {
  for (;;) {
    try {
      ajv.compile(schema);
      return null;
    } catch (error) {
      const message = messageOf(error);
      const extension = /unknown keyword: "(x-[^"]+)"/.exec(message)?.[1];
      if (extension === undefined) return message;
      ajv.addKeyword(extension);
    } finally {
      // Two roles may share a schema (an `!include`) with one `$id`; Ajv would call the second a duplicate.
      ajv.removeSchema(schema);
    }
  }
}

/**
 * Ajv's strict-mode error for a format it was not given, `unknown format "int32" ignored in schema at
 * path "#/properties/size"`, as the `format` field's path and a message naming the formats uwf checks.
 */
function unknownFormat(message: string): { path: (string | number)[]; message: string } | null {
  const match = /^unknown format "(.*)" ignored in schema at path "#(.*)"$/s.exec(message);
  if (match === null) return null;
  const [, name, pointer] = match;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pointer ?? "");
  } catch {
    decoded = pointer ?? "";
  }
  return {
    path: [...pointerSegments(decoded), "format"],
    message: `unknown format "${name}": uwf checks only ${enforcedFormats().join(", ")}; any other format would go unchecked`,
  };
}

/** The meta-schema reports a bad `type` three ways (enum, array, anyOf); the enum one says what is allowed. */
function onePerPath(errors: ErrorObject[]): ErrorObject[] {
  const chosen = new Map<string, ErrorObject>();
  for (const error of errors) {
    const current = chosen.get(error.instancePath);
    if (current === undefined || (error.keyword === "enum" && current.keyword !== "enum")) {
      chosen.set(error.instancePath, error);
    }
  }
  return [...chosen.values()];
}

function describeMetaError(error: ErrorObject): string {
  const allowed = (error.params as { allowedValues?: unknown }).allowedValues;
  const message = error.message ?? "invalid";
  return Array.isArray(allowed) ? `${message} (${allowed.join(", ")})` : message;
}

/** `/properties/summary/type` → `["properties", "summary", "type"]`, with indices as numbers. */
function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

/** The path of the first place `key` appears in a schema, depth first. */
function findKey(value: unknown, key: string): (string | number)[] | null {
  if (typeof value !== "object" || value === null) return null;
  if (!Array.isArray(value) && Object.hasOwn(value, key)) return [key];
  for (const [child, inner] of Object.entries(value)) {
    const found = findKey(inner, key);
    if (found !== null) return [Array.isArray(value) ? Number(child) : child, ...found];
  }
  return null;
}
