/**
 * `{{ name }}` or `{{ a.b }}`: an output of a variable, without filters or whitespace control. Not
 * after a `{`: in `{{{ name }}` Liquid's output starts at the first `{{` and does not parse.
 */
const PLACEHOLDER = /(?<!\{)\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;
const ANY_LIQUID_MARKUP = /\{\{|\{%|\}\}|%\}/;
/**
 * Names Liquid reads as literals, not variables: `{{ true }}` prints "true" and `{{ empty }}` nothing,
 * whatever a role's field of that name holds. A placeholder starting with one is left to liquidjs.
 */
const LIQUID_LITERALS = new Set(["true", "false", "nil", "null", "empty", "blank"]);

/** True when the only Liquid in an edge prompt is plain variable outputs (most prompts: "Review: {{ summary }}"). */
export function isPlainSubstitution(source: string): boolean {
  let literal = false;
  const rest = source.replace(PLACEHOLDER, (_placeholder, path: string) => {
    if (LIQUID_LITERALS.has(path.split(".", 1)[0] as string)) literal = true;
    return "";
  });
  return !literal && !ANY_LIQUID_MARKUP.test(rest);
}

/**
 * Renders a plain-substitution prompt without loading liquidjs, which costs more than the rest of
 * the moderator together. Only strings, numbers and booleans take this path (Liquid prints the last two
 * as `String` does); anything else (null, a list, an undefined variable, a Liquid literal such as
 * `{{ empty }}`) returns undefined so that Liquid renders it, with its own output and errors.
 * plain-substitution.test.ts holds it to liquidjs's output over generated templates and contexts.
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
