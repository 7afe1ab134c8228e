import { InvalidJsonValueError } from "../errors/invalid-json-value-error.ts";

/**
 * The reference RFC 8785 (JCS) encoder: a direct recursive writer that canonicalizeJson falls
 * back to for the rare values its fast path does not handle, and that produces the detailed
 * error (with the path of the offending value) whenever a value cannot be encoded.
 *
 * Numbers use ECMAScript Number::toString and strings JSON.stringify's escaping, exactly the
 * rules JCS adopts; keys are sorted by UTF-16 code units (what `<` on strings compares).
 * Lone surrogates are rejected (JCS requires I-JSON). Undefined members are dropped and
 * undefined array items become null, as in JSON.stringify; objects with `toJSON` (a Date) are
 * replaced by its result. Any other non-JSON value (bigint, function, symbol, NaN, a Map, a
 * cycle) throws InvalidJsonValueError.
 */
export function encodeCanonicalJson(value: unknown): string {
  try {
    const text = encodeValue(value, 0);
    if (text === undefined) throw new Failure("undefined is not a JSON value");
    return text;
  } catch (error) {
    if (error instanceof Failure) throw new InvalidJsonValueError(formatPath(error.path), error.reason);
    if (error instanceof RangeError) throw new InvalidJsonValueError("$", "it is nested too deeply");
    throw error;
  } finally {
    ancestors.length = 0;
  }
}

/** Internal: carries the failing path outward, one segment per container being unwound. */
class Failure extends Error {
  readonly path: (string | number)[] = [];
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}

/** Past this depth a container is checked against its ancestors; shallower cycles cannot exist unnoticed. */
const CYCLE_CHECK_DEPTH = 64;
const ancestors: object[] = [];

function encodeValue(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case "string":
      return encodeString(value);
    case "number":
      if (!Number.isFinite(value)) throw new Failure(`${value} is not a JSON number`);
      // For finite numbers String() is ECMAScript Number::toString, the JCS rule.
      return String(value);
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
      return undefined;
    case "object":
      if (value === null) return "null";
      if (Array.isArray(value)) return encodeArray(value, depth);
      return encodeObject(value, depth);
    default:
      throw new Failure(`a ${typeof value} is not a JSON value`);
  }
}

/** String.prototype.isWellFormed is ES2024, newer than the lib this repository compiles against; Bun has it. */
type WellFormedCheckable = string & { isWellFormed(): boolean };

function encodeString(text: string): string {
  if (!(text as WellFormedCheckable).isWellFormed()) throw new Failure("a string holds a lone surrogate");
  return JSON.stringify(text);
}

function enter(container: object, depth: number): void {
  // Every container is recorded (a cheap indexed store), but only deep ones are searched.
  if (depth >= CYCLE_CHECK_DEPTH && ancestors.lastIndexOf(container, depth - 1) !== -1) {
    throw new Failure("it contains a cycle");
  }
  ancestors[depth] = container;
}

function encodeArray(items: readonly unknown[], depth: number): string {
  enter(items, depth);
  let text = "[";
  for (let index = 0; index < items.length; index++) {
    if (index > 0) text += ",";
    try {
      text += encodeValue(items[index], depth + 1) ?? "null";
    } catch (error) {
      if (error instanceof Failure) error.path.unshift(index);
      throw error;
    }
  }
  return `${text}]`;
}

function encodeObject(object: object, depth: number): string | undefined {
  const prototype = Object.getPrototypeOf(object);
  if (prototype !== Object.prototype && prototype !== null) return encodeSpecialObject(object, depth);
  enter(object, depth);
  const record = object as Record<string, unknown>;
  // Array.prototype.sort compares strings by UTF-16 code units, the order JCS requires.
  const keys = Object.keys(record).sort();
  let text = "{";
  for (const key of keys) {
    let member: string | undefined;
    try {
      member = encodeValue(record[key], depth + 1);
    } catch (error) {
      if (error instanceof Failure) error.path.unshift(key);
      throw error;
    }
    if (member === undefined) continue;
    text += text.length === 1 ? encodeString(key) : `,${encodeString(key)}`;
    text += `:${member}`;
  }
  return `${text}}`;
}

/** A Date or any class with `toJSON` becomes what it returns; other class instances have no faithful JSON form. */
function encodeSpecialObject(object: object, depth: number): string | undefined {
  const toJson = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJson === "function") return encodeValue(toJson.call(object), depth);
  const name = (object as { constructor?: { name?: string } }).constructor?.name ?? "object";
  throw new Failure(`a ${name} is not a plain object`);
}

function formatPath(segments: readonly (string | number)[]): string {
  let path = "$";
  for (const segment of segments) {
    path +=
      typeof segment === "number"
        ? `[${segment}]`
        : /^[A-Za-z_$][\w$]*$/.test(segment)
          ? `.${segment}`
          : `[${JSON.stringify(segment)}]`;
  }
  return path;
}
