import type { Document, LineCounter } from "yaml";
import type { FieldPath } from "../issue/field-path.ts";
import { loadYaml } from "../yaml/load-yaml.ts";

export interface FieldLocation {
  line: number;
  column: number;
}

/**
 * Finds where a field sits in the YAML source. A scalar is located at its value;
 * a map or list at its key (`frontmatter:` reads better than the first line inside it);
 * a field that is missing at the deepest ancestor that exists, so "missing goal" points at the role.
 */
export function locateField(
  document: Document,
  lineCounter: LineCounter,
  path: FieldPath,
  pointAt: "key" | "value" = "value",
): FieldLocation | null {
  const { isCollection, isMap, isScalar, isSeq } = loadYaml();
  let node: unknown = document.contents;
  let offset = startOf(node);
  let matched = true;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (pair === undefined) {
        matched = false;
        break;
      }
      offset = startOf(pair.key) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === "number" && segment < node.items.length) {
      node = node.items[segment];
      offset = startOf(node) ?? offset;
    } else {
      matched = false;
      break;
    }
  }
  if (matched && pointAt === "value" && node !== null && !isCollection(node)) offset = startOf(node) ?? offset;
  if (offset === undefined) return null;
  const position = lineCounter.linePos(offset);
  return { line: position.line, column: position.col };
}

function startOf(node: unknown): number | undefined {
  if (typeof node !== "object" || node === null || !("range" in node)) return undefined;
  const range = (node as { range?: readonly number[] | null }).range;
  return range?.[0];
}

/** The path of the innermost field whose source covers `offset`: where a YAML error (a duplicate key) sits. */
export function fieldPathAt(document: Document, offset: number): FieldPath {
  const { isMap, isScalar, isSeq } = loadYaml();
  const path: (string | number)[] = [];
  let node: unknown = document.contents;
  for (;;) {
    if (isMap(node)) {
      // From the key to the end of the value, so a tag between the two counts as the pair's.
      const pair = node.items.find(
        (item) => (startOf(item.key) ?? offset + 1) <= offset && offset < endOf(item.value ?? item.key),
      );
      if (pair === undefined || !isScalar(pair.key)) return path;
      path.push(String(pair.key.value));
      if (!covers(pair.value, offset)) return path;
      node = pair.value;
    } else if (isSeq(node)) {
      const index = node.items.findIndex((item) => covers(item, offset));
      if (index < 0) return path;
      path.push(index);
      node = node.items[index];
    } else {
      return path;
    }
  }
}

function endOf(node: unknown): number {
  if (typeof node !== "object" || node === null || !("range" in node)) return -1;
  const range = (node as { range?: readonly number[] | null }).range;
  return range?.[1] ?? -1;
}

/** Zero-width nodes (an empty value) still cover their own start. */
function covers(node: unknown, offset: number): boolean {
  const start = startOf(node);
  return start !== undefined && start <= offset && offset < Math.max(endOf(node), start + 1);
}
