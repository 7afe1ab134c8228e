/** `{{ name }}` or `{{ a.b }}`: an output of a variable, without filters or whitespace control. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;
const ANY_LIQUID_MARKUP = /\{\{|\{%|\}\}|%\}/;

/** True when the only Liquid in an edge prompt is plain variable outputs (most prompts: "Review: {{ summary }}"). */
export function isPlainSubstitution(source: string): boolean {
  return !ANY_LIQUID_MARKUP.test(source.replace(PLACEHOLDER, ""));
}

/**
 * Renders a plain-substitution prompt without loading liquidjs, which costs more than the rest of
 * the moderator together. Only strings, numbers and booleans take this path (Liquid prints the last two
 * as `String` does); anything else (null, a list, an undefined variable) returns undefined so that
 * Liquid renders it, with its own output and errors.
 */
export function renderPlainSubstitution(source: string, context: Record<string, unknown>): string | undefined {
  if (!isPlainSubstitution(source)) return undefined;
  let plain = true;
  const rendered = source.replace(PLACEHOLDER, (_placeholder, path: string) => {
    const value = lookUp(context, path.split("."));
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    plain = false;
    return "";
  });
  return plain ? rendered : undefined;
}

/** Own properties only, as the Liquid engine is configured (`ownPropertyOnly`). */
function lookUp(context: unknown, segments: string[]): unknown {
  let value = context;
  for (const segment of segments) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
