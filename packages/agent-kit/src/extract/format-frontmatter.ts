import { stringify } from "yaml";

/** YAML for prompts and replies: block style, no line folding, so the same value always prints the same way. */
export function formatYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0, minContentWidth: 0 });
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
