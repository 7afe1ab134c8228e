import { encodeCanonicalJson } from "./encode-canonical-json.ts";
import { sortedKeysOf } from "./sorted-keys-of.ts";

/**
 * RFC 8785 (JCS) canonical JSON text of a value; see encodeCanonicalJson for the exact rules.
 *
 * Canonical encoding dominates the cost of a write, and the obvious recursive writer spends
 * most of its time flattening the rope of small strings it concatenates (about 1 µs for a
 * 300-byte step node in Bun). So the fast path only validates the value and rebuilds it with
 * keys inserted in sorted order, then lets the native JSON.stringify write it in one flat
 * string: its number and string output is exactly what JCS specifies. Anything the fast path
 * is unsure of (array-index keys, which engines enumerate first; `__proto__`; deep nesting
 * that may be a cycle; any invalid value) goes to the reference encoder, which either
 * encodes it or throws InvalidJsonValueError naming where the value sits.
 */
export function canonicalizeJson(value: unknown): string {
  let rebuilt: unknown;
  try {
    rebuilt = rebuild(value, 0);
  } catch (error) {
    if (error === SLOW_PATH) return encodeCanonicalJson(value);
    throw error;
  }
  if (rebuilt === undefined) return encodeCanonicalJson(value);
  return JSON.stringify(rebuilt);
}

const utf8 = new TextEncoder();

/** The canonical text as UTF-8: exactly the bytes that are hashed and stored. */
export function canonicalizeJsonBytes(value: unknown): Uint8Array {
  return utf8.encode(canonicalizeJson(value));
}

/** String.prototype.isWellFormed is ES2024, newer than the lib this repository compiles against; Bun has it. */
type WellFormedCheckable = string & { isWellFormed(): boolean };

/** Thrown (as a constant, no stack capture) to hand a value to the reference encoder. */
const SLOW_PATH = Symbol("slow path");

/** Deeper than this the value may be a cycle; the reference encoder checks properly. */
const FAST_PATH_DEPTH = 100;

/**
 * The value as JSON.stringify must see it: the same value when it is already canonical,
 * otherwise a copy whose objects hold their keys in sorted order. Containers are copied
 * lazily, only once a difference is found, so sorted data costs no allocation.
 */
function rebuild(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case "string":
      if (!(value as WellFormedCheckable).isWellFormed()) throw SLOW_PATH;
      return value;
    case "number":
      if (!Number.isFinite(value)) throw SLOW_PATH;
      return value;
    case "boolean":
    case "undefined":
      return value;
    case "object":
      if (value === null) return null;
      if (depth > FAST_PATH_DEPTH) throw SLOW_PATH;
      if (Array.isArray(value)) return rebuildArray(value, depth);
      return rebuildObject(value, depth);
    default:
      throw SLOW_PATH;
  }
}

function rebuildArray(items: readonly unknown[], depth: number): unknown[] {
  let copy: unknown[] | undefined;
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const rebuilt = rebuild(item, depth + 1);
    if (copy === undefined) {
      if (rebuilt === item) continue;
      copy = items.slice(0, index);
    }
    copy.push(rebuilt);
  }
  return copy ?? (items as unknown[]);
}

function rebuildObject(object: object, depth: number): unknown {
  const prototype = Object.getPrototypeOf(object);
  if (prototype !== Object.prototype && prototype !== null) {
    const toJson = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJson !== "function") throw SLOW_PATH;
    return rebuild(toJson.call(object), depth + 1);
  }
  const record = object as Record<string, unknown>;
  const keys = sortedKeysOf(record);
  if (keys === null) throw SLOW_PATH;
  // An unsorted object is always copied; a sorted one only when a member changes.
  let copy: Record<string, unknown> | undefined = keys.isSorted ? undefined : {};
  const sorted = keys.sorted;
  for (let index = 0; index < sorted.length; index++) {
    const key = sorted[index] as string;
    const member = record[key];
    const rebuilt = rebuild(member, depth + 1);
    if (copy === undefined) {
      if (rebuilt === member) continue;
      copy = {};
      for (let earlier = 0; earlier < index; earlier++) {
        const earlierKey = sorted[earlier] as string;
        if (record[earlierKey] !== undefined) copy[earlierKey] = record[earlierKey];
      }
    }
    if (rebuilt !== undefined) copy[key] = rebuilt;
  }
  return copy ?? record;
}
