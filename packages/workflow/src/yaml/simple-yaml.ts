/**
 * A fast path in front of the `yaml` library for the YAML a step reads and writes most: mappings of
 * plain keys to plain scalars (`n: 3`, `done: false`, `summary: Fixed the redirect`), with nested
 * mappings and lists on the writing side. Every step is a new process, and the library's first parse
 * and first stringify in a process each cost about 2 ms (its code runs cold), where this costs
 * microseconds.
 *
 * Both functions return undefined for anything outside the subset, and the caller asks the library.
 * For what they accept, they give exactly what the library gives (simple-yaml.test.ts holds them to
 * that over generated values); the subset is kept narrow so that this is easy to be sure of: a key or
 * string that the library might read as anything but itself is never handled here.
 */

/** A key the library writes bare and reads back as the same string. */
const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
/**
 * A string the library writes bare and reads back as the same string: it starts with a letter (not a
 * YAML indicator, digit, sign or dot), has no control character, tab or BOM, no `: ` or ` #` (a
 * nested mapping or a comment) and does not end in a space or a colon.
 */
const PLAIN_STRING = /^[A-Za-z<][\x20-\x7E\u00A0-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD]*$/;
const NOT_PLAIN_INSIDE = /: | #|[ :]$/;
/** Words the YAML 1.2 core schema reads as booleans or null, in any case the library accepts. */
const KEYWORDS = new Set(["true", "false", "null"]);
const CORE_KEYWORDS = new Set(["true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL"]);
/** A string the library writes in double quotes exactly as it is: one that starts with a letter, needs quoting, and has nothing to escape. */
const QUOTABLE = /^[A-Za-z][\x20\x21\x23-\x5B\x5D-\x7E\u00A0-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD]*$/;
const INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/;
const DECIMAL = /^-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/;
const LINE = /^([A-Za-z_$][A-Za-z0-9_$-]*): +(.*)$/;
const DOUBLE_QUOTED = /^"([\x20-\x21\x23-\x5B\x5D-\x7E]*)"$/;
const SINGLE_QUOTED = /^'([\x20-\x26\x28-\x7E]*)'$/;

function isPlainKey(key: string): boolean {
  return PLAIN_KEY.test(key) && !KEYWORDS.has(key.toLowerCase()) && key !== "__proto__";
}

function isPlainString(value: string): boolean {
  return PLAIN_STRING.test(value) && !NOT_PLAIN_INSIDE.test(value) && !KEYWORDS.has(value.toLowerCase());
}

/**
 * `key: value` lines (blank lines allowed) as an object, or undefined when the text is anything else:
 * indentation, comments, lists, flow collections, anchors, escapes, an empty value, a repeated key.
 * Values are booleans, null, integers and decimals of up to 15 digits each side, plain strings that
 * start with a letter, and quoted strings without escapes or inner quotes.
 */
export function parseSimpleYamlMapping(text: string): Record<string, unknown> | undefined {
  const fields: Record<string, unknown> = {};
  let count = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const match = LINE.exec(line);
    if (match === null) return undefined;
    const key = match[1] as string;
    if (!isPlainKey(key) || Object.hasOwn(fields, key)) return undefined;
    const value = parseScalar(match[2] as string);
    if (value === undefined) return undefined;
    fields[key] = value.value;
    count++;
  }
  return count === 0 ? undefined : fields;
}

function parseScalar(text: string): { value: unknown } | undefined {
  if (text === "true") return { value: true };
  if (text === "false") return { value: false };
  if (text === "null") return { value: null };
  if (INTEGER.test(text) || DECIMAL.test(text)) return { value: Number(text) };
  if (isPlainString(text)) return { value: text };
  const quoted = DOUBLE_QUOTED.exec(text) ?? SINGLE_QUOTED.exec(text);
  return quoted === null ? undefined : { value: quoted[1] };
}

/**
 * A non-empty object as the library's block-style YAML (`lineWidth: 0`), or undefined when some key
 * or value is outside the subset: keys must be plain, strings plain or quoted without escapes (as in
 * `summary: "step 3: done"`), numbers finite (not -0), and lists may hold only scalars.
 */
export function formatSimpleYamlMapping(value: Record<string, unknown>): string | undefined {
  const lines: string[] = [];
  return Object.keys(value).length > 0 && writeMapping(value, "", lines) ? `${lines.join("\n")}\n` : undefined;
}

function writeMapping(mapping: Record<string, unknown>, indent: string, lines: string[]): boolean {
  for (const key of Object.keys(mapping)) {
    if (!isPlainKey(key)) return false;
    const value = mapping[key];
    const scalar = formatScalar(value);
    if (scalar !== undefined) {
      lines.push(`${indent}${key}: ${scalar}`);
    } else if (Array.isArray(value)) {
      if (value.length === 0) {
        lines.push(`${indent}${key}: []`);
        continue;
      }
      lines.push(`${indent}${key}:`);
      for (const item of value) {
        const itemText = formatScalar(item);
        if (itemText === undefined) return false;
        lines.push(`${indent}  - ${itemText}`);
      }
    } else if (isPlainObject(value)) {
      if (Object.keys(value).length === 0) {
        lines.push(`${indent}${key}: {}`);
        continue;
      }
      lines.push(`${indent}${key}:`);
      if (!writeMapping(value, `${indent}  `, lines)) return false;
    } else {
      return false;
    }
  }
  return true;
}

function formatScalar(value: unknown): string | undefined {
  if (value === null) return "null";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0) ? String(value) : undefined;
  if (typeof value === "string") return formatString(value);
  return undefined;
}

function formatString(value: string): string | undefined {
  if (isPlainString(value)) return value;
  const mustQuote = NOT_PLAIN_INSIDE.test(value) || CORE_KEYWORDS.has(value);
  return mustQuote && QUOTABLE.test(value) ? `"${value}"` : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
