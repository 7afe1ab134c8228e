/**
 * The characters a terminal may act on rather than show: the C0 controls but tab and newline (a
 * carriage return only where no newline follows it), DEL and the C1 controls. ESC starts the
 * sequences that clear the screen, move the cursor, retitle the window or set the clipboard (OSC 52).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARACTERS = /\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/**
 * `text` with each control character shown as its `\xHH` escape (ESC as `\x1b`), so text an agent
 * wrote can be read on a terminal but not drive it. Tabs, newlines and `\r\n` stay as they are.
 */
export function escapeControlCharacters(text: string): string {
  CONTROL_CHARACTERS.lastIndex = 0;
  if (!CONTROL_CHARACTERS.test(text)) return text;
  return text.replace(CONTROL_CHARACTERS, (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/**
 * A copy of `value` (JSON-like data: a command's result or event) whose strings, keys included, are
 * escaped with `escapeControlCharacters`; anything else is kept. Values without control characters
 * come back as they are.
 */
export function escapeControlCharactersIn<Value>(value: Value): Value {
  return escapeValue(value) as Value;
}

function escapeValue(value: unknown): unknown {
  if (typeof value === "string") return escapeControlCharacters(value);
  if (Array.isArray(value)) return value.map(escapeValue);
  if (value === null || typeof value !== "object") return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const escaped: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) escaped[escapeControlCharacters(key)] = escapeValue(field);
  return escaped;
}
