import type { JsonSchemaObject } from "@uwf/protocol";
import { STATUS_FIELD } from "./status-fields.ts";

/**
 * One shape a role's reply may take: the fields it carries and which of them are required, for
 * the `$status` values it answers. A schema without branches has one; a schema that declares what
 * each status carries (`oneOf`/`anyOf` branches, `if`/`then`/`else` on `$status`) has one per branch.
 */
export interface StatusBranch {
  /** The `$status` values this branch answers; null when it does not pin `$status` (any value but `excluded`). */
  statuses: string[] | null;
  /** With `statuses` null: the values an earlier `if` took away (this is its `else`). */
  excluded: string[];
  properties: Record<string, JsonSchemaObject>;
  required: string[];
  /** Where the branch is written inside the role's schema (`["oneOf", 1]`); empty for the schema itself. */
  path: (string | number)[];
}

/**
 * The reply shapes a role schema allows, in the order they are written. Branches are read from
 * `oneOf` and `anyOf` (each branch joined with the schema's own `properties` and `required`),
 * from `allOf` (entries without `if` apply to every branch), and from `if`/`then`/`else` whose
 * `if` tests only `$status` (at the top or inside `allOf`). A branch that pins `$status` to
 * values its base excludes is dropped. Anything the schema says beyond this is still enforced by
 * validating the reply against the whole schema; branches are what prompts and templates need.
 */
export function listStatusBranches(schema: JsonSchemaObject): StatusBranch[] {
  const ownProperties = propertiesOf(schema);
  let branches: StatusBranch[] = [
    {
      statuses: statusValues(ownProperties[STATUS_FIELD]),
      excluded: [],
      properties: ownProperties,
      required: requiredOf(schema),
      path: [],
    },
  ];
  for (const keyword of ["oneOf", "anyOf"] as const) {
    const alternatives = schema[keyword];
    if (!Array.isArray(alternatives)) continue;
    branches = branches.flatMap((branch) =>
      alternatives.flatMap((alternative, index) => joinBranch(branch, asSchema(alternative), [keyword, index])),
    );
  }
  const allOf = Array.isArray(schema.allOf) ? schema.allOf : [];
  allOf.forEach((entry, index) => {
    const part = asSchema(entry);
    branches =
      part.if === undefined
        ? branches.flatMap((branch) => joinBranch(branch, part, ["allOf", index], false))
        : branches.flatMap((branch) => splitOnCondition(branch, part, ["allOf", index]));
  });
  if (schema.if !== undefined) branches = branches.flatMap((branch) => splitOnCondition(branch, schema, []));
  return branches;
}

/** True when a branch answers `status`. */
export function branchAnswers(branch: StatusBranch, status: string): boolean {
  return branch.statuses === null ? !branch.excluded.includes(status) : branch.statuses.includes(status);
}

/** Every field any branch may carry, with the first schema given for it. */
export function allBranchProperties(branches: readonly StatusBranch[]): Record<string, JsonSchemaObject> {
  const properties: Record<string, JsonSchemaObject> = {};
  for (const branch of branches) {
    for (const [name, field] of Object.entries(branch.properties)) if (!(name in properties)) properties[name] = field;
  }
  return properties;
}

/** The `$status` values a field schema allows (`const` or `enum`), as strings; null when it does not pin them. */
export function statusValues(field: unknown): string[] | null {
  const schema = asSchema(field);
  if ("const" in schema) return [String(schema.const)];
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  return null;
}

function joinBranch(
  base: StatusBranch,
  part: JsonSchemaObject,
  at: (string | number)[],
  pinsStatus = true,
): StatusBranch[] {
  const properties = propertiesOf(part);
  const own = pinsStatus ? statusValues(properties[STATUS_FIELD]) : null;
  const statuses = intersect(base, own);
  if (statuses !== null && statuses.length === 0) return [];
  return [
    {
      statuses,
      excluded: statuses === null ? base.excluded : [],
      properties: { ...base.properties, ...properties },
      required: [...new Set([...base.required, ...requiredOf(part)])],
      path: pinsStatus ? [...base.path, ...at] : base.path,
    },
  ];
}

/** `if` on `$status` splits a branch into the statuses it names (`then`) and the rest (`else`). */
function splitOnCondition(
  branch: StatusBranch,
  conditional: JsonSchemaObject,
  at: (string | number)[],
): StatusBranch[] {
  const named = statusValues(propertiesOf(asSchema(conditional.if))[STATUS_FIELD]);
  const thenPart = asSchema(conditional.then);
  const elsePart = asSchema(conditional.else);
  if (named === null) {
    // An `if` on other fields: its fields may appear, but no status decides when.
    const optional = { ...propertiesOf(thenPart), ...propertiesOf(elsePart) };
    return [{ ...branch, properties: { ...optional, ...branch.properties } }];
  }
  const inside: StatusBranch = { ...branch, statuses: intersect(branch, named), excluded: [] };
  const outside: StatusBranch =
    branch.statuses === null
      ? { ...branch, excluded: [...new Set([...branch.excluded, ...named])] }
      : { ...branch, statuses: branch.statuses.filter((value) => !named.includes(value)) };
  const result: StatusBranch[] = [];
  if (inside.statuses === null || inside.statuses.length > 0) {
    result.push(...joinBranch(inside, thenPart, [...at, "then"], false).map((joined) => withPath(joined, at, "then")));
  }
  if (outside.statuses === null || outside.statuses.length > 0) {
    result.push(...joinBranch(outside, elsePart, [...at, "else"], false).map((joined) => withPath(joined, at, "else")));
  }
  return result;
}

function withPath(branch: StatusBranch, at: (string | number)[], part: "then" | "else"): StatusBranch {
  return { ...branch, path: [...branch.path, ...at, part] };
}

/** The statuses both a branch and a narrowing allow; null when neither pins them. */
function intersect(base: StatusBranch, narrowing: string[] | null): string[] | null {
  if (narrowing === null) return base.statuses;
  const allowed = narrowing.filter((value) => !base.excluded.includes(value));
  return base.statuses === null ? allowed : base.statuses.filter((value) => allowed.includes(value));
}

function propertiesOf(schema: JsonSchemaObject): Record<string, JsonSchemaObject> {
  const properties = schema.properties;
  if (properties === null || typeof properties !== "object" || Array.isArray(properties)) return {};
  const result: Record<string, JsonSchemaObject> = {};
  for (const [name, field] of Object.entries(properties)) result[name] = asSchema(field);
  return result;
}

function requiredOf(schema: JsonSchemaObject): string[] {
  return Array.isArray(schema.required) ? schema.required.map(String) : [];
}

function asSchema(value: unknown): JsonSchemaObject {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonSchemaObject) : {};
}
