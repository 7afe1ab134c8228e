/** The kind of a node (its `type`), or null for plain JSON. */
export function nodeKind(node: unknown): string | null {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return null;
  const kind = (node as { type?: unknown }).type;
  return typeof kind === "string" ? kind : null;
}
