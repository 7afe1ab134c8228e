import { isObject } from "@uwf/protocol";
import { loadYaml } from "./load-yaml.ts";
import { formatSimpleYamlMapping } from "./simple-yaml.ts";

/**
 * YAML for prompts and replies: block style, no line folding, so the same value always prints the
 * same way. Simple mappings take the fast path (see simple-yaml.ts), which writes the same text.
 */
export function formatYaml(value: unknown): string {
  const simple = isObject(value) ? formatSimpleYamlMapping(value) : undefined;
  return simple ?? loadYaml().stringify(value, { lineWidth: 0, minContentWidth: 0 });
}

/**
 * A reply in the form agents are asked for: `---`, the fields as YAML, `---`,
 * a blank line and the markdown body. The inverse of `extractFrontmatter`.
 */
export function formatFrontmatter(fields: Record<string, unknown>, body: string): string {
  const yaml = Object.keys(fields).length === 0 ? "" : formatYaml(fields);
  const trimmedBody = body.trimEnd();
  return `---\n${yaml}---\n${trimmedBody === "" ? "" : `\n${trimmedBody}\n`}`;
}
