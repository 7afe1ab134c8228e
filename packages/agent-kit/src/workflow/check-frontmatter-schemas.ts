import type { WorkflowNode } from "@uwf/protocol";
import type { Ajv, ErrorObject } from "ajv";
import type { FieldPath } from "./field-path.ts";
import type { WorkflowIssue } from "./workflow-issue.ts";

/**
 * Each role's `frontmatter` must be a JSON Schema that Ajv accepts: valid against the
 * meta-schema, and compilable in strict mode (which catches typos such as `requried`).
 * `format` is accepted unchecked: uwf has no format plugins, so output is not held to it either.
 */
export function checkFrontmatterSchemas(workflow: WorkflowNode): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const ajv = createSchemaChecker();
  for (const [role, definition] of Object.entries(workflow.roles)) {
    const schema = definition.frontmatter;
    if (schema === undefined) continue;
    const base: FieldPath = ["roles", role, "frontmatter"];
    if (schema.type !== undefined && schema.type !== "object") {
      issues.push({
        severity: "error",
        path: [...base, "type"],
        message: 'a role reports fields, so the type is "object"',
      });
      continue;
    }
    if (!ajv.validateSchema(schema)) {
      for (const error of onePerPath(ajv.errors ?? [])) {
        issues.push({
          severity: "error",
          path: [...base, ...pointerSegments(error.instancePath)],
          message: `invalid JSON Schema: ${describeMetaError(error)}`,
        });
      }
      continue;
    }
    const message = compileError(ajv, schema);
    if (message === null) continue;
    const keyword = /unknown keyword: "([^"]+)"/.exec(message)?.[1];
    const where = keyword === undefined ? [] : (findKey(schema, keyword) ?? []);
    issues.push({ severity: "error", path: [...base, ...where], message: `invalid JSON Schema: ${message}` });
  }
  return issues;
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
    validateFormats: false,
    logger: false,
  });
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
      const message = error instanceof Error ? error.message : String(error);
      const extension = /unknown keyword: "(x-[^"]+)"/.exec(message)?.[1];
      if (extension === undefined) return message;
      ajv.addKeyword(extension);
    } finally {
      // Two roles may share a schema (an `!include`) with one `$id`; Ajv would call the second a duplicate.
      ajv.removeSchema(schema);
    }
  }
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
