import type { JsonSchemaObject, WorkflowNode } from "@uwf/protocol";

/**
 * Records, on an object schema, the order its author wrote its `properties` in. A workflow is
 * stored as canonical JSON, which sorts keys; field order matters to a model (a `reasoning`
 * field before `verdict` gives better verdicts) and to a person reading, so it is kept here.
 * Written only where the author's order is not the sorted one, so other schemas (and the
 * addresses of their workflows) stay as they were. JSON Schema ignores unknown keywords.
 */
export const FIELD_ORDER_KEYWORD = "x-uwf-order";

/** Keywords whose value is a schema, a list of schemas, or a map of names to schemas. */
const SCHEMA_KEYWORDS = ["items", "additionalProperties", "not", "if", "then", "else", "contains"] as const;
const SCHEMA_LIST_KEYWORDS = ["oneOf", "anyOf", "allOf", "prefixItems"] as const;
const SCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "$defs", "definitions"] as const;

/** The workflow with each role's field order recorded (`FIELD_ORDER_KEYWORD`): done once, when a workflow file is read. */
export function recordFieldOrder(workflow: WorkflowNode): WorkflowNode {
  const roles = Object.fromEntries(
    Object.entries(workflow.roles).map(([name, role]) => [
      name,
      mapRoleSchemas(role, (schema) => mapSchema(schema, recordOrder)),
    ]),
  );
  return { ...workflow, roles };
}

type Role = WorkflowNode["roles"][string];

/** A role with its schemas mapped: `frontmatter`, and `ask` and `answer` (unless `approval`) when it has them. */
function mapRoleSchemas(role: Role, map: (schema: JsonSchemaObject) => JsonSchemaObject): Role {
  const mapped: Role = { ...role };
  if (role.frontmatter !== undefined) mapped.frontmatter = map(role.frontmatter);
  if (role.ask !== undefined) mapped.ask = map(role.ask);
  if (role.answer !== undefined && role.answer !== "approval") mapped.answer = map(role.answer);
  return mapped;
}

export interface RestoreFieldOrderOptions {
  /** Keep `FIELD_ORDER_KEYWORD` in the result (so it hashes as stored). Default false: a schema for reading. */
  keepKeyword?: boolean;
}

/** A schema whose `properties` (at every level) iterate in the author's order again. */
export function restoreFieldOrder(schema: JsonSchemaObject, options: RestoreFieldOrderOptions = {}): JsonSchemaObject {
  return mapSchema(schema, (node) => restoreOrder(node, options.keepKeyword ?? false));
}

/** The workflow with every role's schema in the author's field order (`restoreFieldOrder`). */
export function restoreWorkflowFieldOrder(
  workflow: WorkflowNode,
  options: RestoreFieldOrderOptions = {},
): WorkflowNode {
  const roles = Object.fromEntries(
    Object.entries(workflow.roles).map(([name, role]) => [
      name,
      mapRoleSchemas(role, (schema) => restoreFieldOrder(schema, options)),
    ]),
  );
  return { ...workflow, roles };
}

function recordOrder(node: JsonSchemaObject): JsonSchemaObject {
  const { [FIELD_ORDER_KEYWORD]: _written, ...rest } = node;
  const properties = asRecord(node.properties);
  if (properties === null) return rest;
  const names = Object.keys(properties);
  const sorted = [...names].sort();
  if (names.every((name, index) => name === sorted[index])) return rest;
  return { ...rest, [FIELD_ORDER_KEYWORD]: names };
}

function restoreOrder(node: JsonSchemaObject, keepKeyword: boolean): JsonSchemaObject {
  const { [FIELD_ORDER_KEYWORD]: order, ...rest } = node;
  const properties = asRecord(node.properties);
  const result: JsonSchemaObject =
    keepKeyword && order !== undefined ? { ...rest, [FIELD_ORDER_KEYWORD]: order } : rest;
  if (properties === null || !Array.isArray(order)) return result;
  const ordered: Record<string, unknown> = {};
  for (const name of order) if (typeof name === "string" && name in properties) ordered[name] = properties[name];
  for (const [name, value] of Object.entries(properties)) if (!(name in ordered)) ordered[name] = value;
  return { ...result, properties: ordered };
}

/** Applies `change` to every schema in the tree, deepest first. */
function mapSchema(schema: JsonSchemaObject, change: (node: JsonSchemaObject) => JsonSchemaObject): JsonSchemaObject {
  const copy: JsonSchemaObject = { ...schema };
  for (const keyword of SCHEMA_KEYWORDS) {
    const value = asRecord(copy[keyword]);
    if (value !== null) copy[keyword] = mapSchema(value, change);
  }
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    const value = copy[keyword];
    if (Array.isArray(value)) copy[keyword] = value.map((entry) => mapSchemaValue(entry, change));
  }
  if (Array.isArray(copy.items)) copy.items = copy.items.map((entry) => mapSchemaValue(entry, change));
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const value = asRecord(copy[keyword]);
    if (value === null) continue;
    copy[keyword] = Object.fromEntries(
      Object.entries(value).map(([name, entry]) => [name, mapSchemaValue(entry, change)]),
    );
  }
  return change(copy);
}

function mapSchemaValue(value: unknown, change: (node: JsonSchemaObject) => JsonSchemaObject): unknown {
  const record = asRecord(value);
  return record === null ? value : mapSchema(record, change);
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
