import { isObject } from "@uwf/protocol";
import { ASK_KEYWORD } from "@uwf/workflow";

/** The property keys the Messages API accepts in a tool's `input_schema`. */
const WIRE_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;
const MAX_KEY_LENGTH = 64;
const COMBINATORS = ["oneOf", "anyOf", "allOf"] as const;

type Schema = Record<string, unknown>;

export interface WireSchema {
  /** The schema with every property key the API accepts (`$status` becomes `status`). */
  schema: Schema;
  /** A tool input written against `schema`, with the original keys back. */
  restore(input: unknown): unknown;
}

/**
 * A JSON Schema the Messages API takes as a tool's `input_schema`: it refuses
 * property keys outside `^[a-zA-Z0-9_.-]{1,64}$`, and uwf's reply schemas
 * carry `$status`. Each key outside the pattern gets a wire name (a leading
 * `$` dropped, other characters replaced by `_`, cut to 64, `_2`, `_3`… when
 * taken); keys that fit are kept. Names are given per object level, the same
 * in the `oneOf`/`anyOf`/`allOf` branches of that level, so per-status branches
 * agree. `restore` walks a tool input along the schema and puts the original
 * keys back, leaving free-form data (keys no schema level declares) alone.
 */
export function toWireSchema(schema: Schema): WireSchema {
  return {
    schema: convertLevel(schema, wireNames(schema)),
    restore: (input) => restoreValue(input, schema),
  };
}

function convertSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convertSchema);
  if (!isObject(node)) return node;
  return convertLevel(node, wireNames(node));
}

function convertLevel(node: Schema, names: Map<string, string>): Schema {
  const copy: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    // A role's `ask:` is uwf's own check of a suspending reply: no part of what the API is told.
    if (key === ASK_KEYWORD) continue;
    if (key === "properties" && isObject(value)) {
      copy.properties = Object.fromEntries(
        Object.entries(value).map(([name, subschema]) => [names.get(name) ?? name, convertSchema(subschema)]),
      );
    } else if (key === "required" && Array.isArray(value)) {
      copy.required = value.map((name) => (typeof name === "string" ? (names.get(name) ?? name) : name));
    } else if (isCombinator(key) && Array.isArray(value)) {
      copy[key] = value.map((branch) => (isObject(branch) ? convertLevel(branch, names) : branch));
    } else if (key === "items" || key === "additionalProperties" || key === "prefixItems") {
      copy[key] = convertSchema(value);
    } else {
      copy[key] = value;
    }
  }
  return copy;
}

function restoreValue(value: unknown, node: unknown): unknown {
  if (!isObject(node)) return value;
  if (Array.isArray(value)) {
    return value.map((item, index) => {
      const tuple = Array.isArray(node.prefixItems) ? node.prefixItems[index] : undefined;
      return restoreValue(item, tuple ?? node.items);
    });
  }
  if (!isObject(value)) return value;
  const originals = new Map([...wireNames(node)].map(([original, wire]) => [wire, original]));
  const restored: Schema = {};
  for (const [key, item] of Object.entries(value)) {
    const original = originals.get(key) ?? key;
    restored[original] = restoreValue(item, findPropertySchema(node, original) ?? node.additionalProperties);
  }
  return restored;
}

/** Original key → wire name for every property one object level declares (its branches included). */
function wireNames(node: Schema): Map<string, string> {
  const keys = [...new Set(levelKeys(node))];
  const taken = new Set(keys.filter((key) => WIRE_KEY.test(key)));
  const names = new Map<string, string>();
  for (const key of keys) {
    if (WIRE_KEY.test(key)) {
      names.set(key, key);
      continue;
    }
    const base =
      key
        .replace(/^\$+/, "")
        .replace(/[^a-zA-Z0-9_.-]/g, "_")
        .slice(0, MAX_KEY_LENGTH) || "field";
    let name = base;
    for (let number = 2; taken.has(name); number++) {
      const suffix = `_${number}`;
      name = `${base.slice(0, MAX_KEY_LENGTH - suffix.length)}${suffix}`;
    }
    taken.add(name);
    names.set(key, name);
  }
  return names;
}

function levelKeys(node: Schema): string[] {
  const keys = isObject(node.properties) ? Object.keys(node.properties) : [];
  for (const combinator of COMBINATORS) {
    const branches = node[combinator];
    if (Array.isArray(branches)) for (const branch of branches) if (isObject(branch)) keys.push(...levelKeys(branch));
  }
  return keys;
}

function findPropertySchema(node: Schema, key: string): unknown {
  if (isObject(node.properties) && Object.hasOwn(node.properties, key)) return node.properties[key];
  for (const combinator of COMBINATORS) {
    const branches = node[combinator];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const found = isObject(branch) ? findPropertySchema(branch, key) : undefined;
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function isCombinator(key: string): key is (typeof COMBINATORS)[number] {
  return (COMBINATORS as readonly string[]).includes(key);
}
