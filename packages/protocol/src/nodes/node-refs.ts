import { type Address, normalizeAddress } from "../ids/address-pattern.ts";
import { NODE_REF_FIELDS } from "./node-ref-fields.ts";

/**
 * The addresses a node points at, in field order. Only the fields its kind
 * declares count; nodes of unknown kinds (or plain JSON) have none.
 */
export function listNodeRefs(node: unknown): Address[] {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return [];
  const kind = (node as { type?: unknown }).type;
  if (typeof kind !== "string") return [];
  const fields = NODE_REF_FIELDS[kind];
  if (fields === undefined) return [];
  const refs: Address[] = [];
  for (const field of fields) collect(node, field.split("."), refs);
  return refs;
}

function collect(value: unknown, path: string[], refs: Address[]): void {
  if (value === null || typeof value !== "object") return;
  const [head, ...rest] = path;
  if (head === undefined) return;
  const isList = head.endsWith("[]");
  const key = isList ? head.slice(0, -2) : head;
  const child = (value as Record<string, unknown>)[key];
  if (isList) {
    if (!Array.isArray(child)) return;
    for (const item of child) collect(item, rest, refs);
    return;
  }
  if (rest.length > 0) {
    collect(child, rest, refs);
    return;
  }
  if (typeof child === "string") {
    const address = normalizeAddress(child);
    if (address !== null) refs.push(address);
  }
}
