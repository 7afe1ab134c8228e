/** String.prototype.isWellFormed and toWellFormed are ES2024, newer than the lib this repository compiles against; Bun has them. */
type WellFormedText = string & { isWellFormed(): boolean; toWellFormed(): string };

/**
 * Where `text` first holds a lone surrogate — half of a UTF-16 surrogate pair without its other half,
 * which neither UTF-8 nor canonical JSON can carry (a YAML or JSON `"\ud800"` escape makes one) — as
 * the index of that code unit; -1 when there is none.
 */
export function findLoneSurrogate(text: string): number {
  if ((text as WellFormedText).isWellFormed()) return -1;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xdc00 && unit <= 0xdfff) return index;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return index;
      index++;
    }
  }
  return -1;
}

/**
 * `value` with every lone surrogate in its strings and keys replaced by U+FFFD (the replacement
 * character), so that it can be stored: what an agent wrote is kept as nearly as JSON allows. Arrays
 * and plain objects are copied; other values are returned as they are.
 */
export function replaceLoneSurrogates<Value>(value: Value): Value {
  if (typeof value === "string") return (value as string as WellFormedText).toWellFormed() as Value;
  if (Array.isArray(value)) return value.map((item) => replaceLoneSurrogates(item)) as Value;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value).map(([key, item]) => [
      replaceLoneSurrogates(key),
      replaceLoneSurrogates(item),
    ]);
    return Object.fromEntries(entries) as Value;
  }
  return value;
}
