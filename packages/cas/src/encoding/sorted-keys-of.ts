/** An object's own keys in JCS order, and whether they were already in that order. */
export interface SortedKeys {
  readonly sorted: readonly string[];
  readonly isSorted: boolean;
}

interface Shape extends SortedKeys {
  readonly keys: readonly string[];
}

/**
 * Keys the fast path cannot place by insertion order: engines enumerate array-index keys
 * ("0", "42") before all others, and assigning `__proto__` sets the prototype instead.
 */
const UNORDERABLE_KEY = /^(?:0|[1-9]\d*)$|^__proto__$/;

/**
 * Sorting keys is the largest cost of canonical encoding after flattening strings (about
 * 300 ns for a 10-key node), yet nodes come in a few shapes built by the same code, so their
 * keys arrive in the same order every time. Shapes are cached by first key; a hit costs one
 * map lookup and an identity comparison per key. Bounded so arbitrary data cannot grow it.
 */
const shapesByFirstKey = new Map<string, Shape[]>();
const SHAPES_PER_FIRST_KEY = 8;
const FIRST_KEYS_LIMIT = 1024;

/** The keys of a plain object sorted by UTF-16 code units, or null when they cannot be written by insertion order. */
export function sortedKeysOf(record: object): SortedKeys | null {
  const keys = Object.keys(record);
  const first = keys[0];
  if (first === undefined) return EMPTY;
  const shapes = shapesByFirstKey.get(first);
  if (shapes !== undefined) {
    for (const shape of shapes) if (sameKeys(shape.keys, keys)) return shape;
  }
  for (const key of keys) if (UNORDERABLE_KEY.test(key)) return null;
  // Array.prototype.sort compares strings by UTF-16 code units, the order JCS requires.
  const sorted = keys.slice().sort();
  const shape: Shape = { keys, sorted, isSorted: sameKeys(keys, sorted) };
  if (shapes === undefined) {
    if (shapesByFirstKey.size >= FIRST_KEYS_LIMIT) shapesByFirstKey.clear();
    shapesByFirstKey.set(first, [shape]);
  } else if (shapes.length < SHAPES_PER_FIRST_KEY) {
    shapes.push(shape);
  }
  return shape;
}

const EMPTY: SortedKeys = { sorted: [], isSorted: true };

function sameKeys(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}
