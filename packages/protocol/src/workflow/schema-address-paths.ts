import type { z } from "zod";
import { InternalError } from "../errors/internal-error.ts";
import { ADDRESS_PATTERN } from "../ids/address-pattern.ts";

/**
 * Every field path at which a schema can hold a node address, in the notation of
 * `NODE_REF_FIELDS` (`prev`, `attempts[].reply`; a record's values are `name{}`).
 * Looks through optional, nullable, default, arrays, objects, unions and pipes; an
 * address is a string schema checked against `ADDRESS_PATTERN`, so copies of
 * `addressSchema` count too. Kinds a stored node cannot hold throw rather than hide one.
 */
export function listSchemaAddressPaths(schema: z.core.$ZodType): string[] {
  const paths = new Set<string>();
  visit(schema, "", paths, new Set());
  return [...paths];
}

function visit(schema: z.core.$ZodType, path: string, paths: Set<string>, open: Set<z.core.$ZodType>): void {
  if (open.has(schema)) return;
  open.add(schema);
  const def = (schema as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case "string":
      if (isAddressString(def.checks ?? [])) paths.add(path);
      break;
    case "object":
      for (const [key, field] of Object.entries(def.shape)) {
        visit(field, path === "" ? key : `${path}.${key}`, paths, open);
      }
      if (def.catchall !== undefined) visit(def.catchall, `${path}{}`, paths, open);
      break;
    case "array":
      visit(def.element, `${path}[]`, paths, open);
      break;
    case "record":
      visit(def.valueType, `${path}{}`, paths, open);
      break;
    case "tuple":
      for (const item of [...def.items, ...(def.rest === null ? [] : [def.rest])]) {
        visit(item, `${path}[]`, paths, open);
      }
      break;
    case "union":
      for (const option of def.options) visit(option, path, paths, open);
      break;
    case "intersection":
      visit(def.left, path, paths, open);
      visit(def.right, path, paths, open);
      break;
    case "pipe":
      visit(def.in, path, paths, open);
      visit(def.out, path, paths, open);
      break;
    case "lazy":
      visit(def.getter(), path, paths, open);
      break;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "readonly":
    case "catch":
      visit(def.innerType, path, paths, open);
      break;
    case "number":
    case "boolean":
    case "null":
    case "literal":
    case "enum":
    case "unknown":
    case "any":
    case "never":
    case "transform":
      break;
    default:
      throw new InternalError(`cannot look for addresses in a zod "${def.type}" schema at "${path}"`);
  }
  open.delete(schema);
}

function isAddressString(checks: readonly z.core.$ZodCheck<never>[]): boolean {
  return checks.some((check) => {
    const checkDef = check._zod.def as { check: string; pattern?: RegExp };
    return checkDef.check === "string_format" && checkDef.pattern?.source === ADDRESS_PATTERN.source;
  });
}
