import { countVisits } from "./history-functions.ts";
import type { ModeratorStep } from "./moderator-history.ts";

/**
 * A fast path in front of JSONata for the conditions workflows write most: comparisons of a step's
 * fields with literals, `$count("role")`, joined by `and` and `or`, as in
 * `steps[-1].output.kind = "bug"` or `$count("fixer") >= 3 or steps[-2].role = "fixer"`. Every step
 * is a new process, and loading and compiling JSONata costs it about 2 ms, where this parses and
 * evaluates in microseconds.
 *
 * `parseSimpleCondition` returns undefined for any expression outside the subset, and the caller
 * compiles it with JSONata. An evaluation returns undefined when it meets a value JSONata treats in
 * a way the subset does not reproduce (an array or object where a scalar is compared, a comparison
 * JSONata would reject with a type error); the caller then asks JSONata. Otherwise the result is
 * exactly JSONata's (simple-condition.test.ts holds it to that over generated expressions and
 * histories). The subset:
 *
 *     condition  = conjunct { "or" conjunct }
 *     conjunct   = comparison { "and" comparison }
 *     comparison = operand [ ("=" | "!=" | "<" | "<=" | ">" | ">=") operand ]
 *     operand    = "steps" "[" integer "]" { "." name } | "$count(" string ")" | string | number
 *                | "true" | "false" | "null"
 *
 * with names of letters, digits and `_` (not `and`, `or`, `in`, `true`, `false`, `null`) and strings
 * in single or double quotes without backslashes.
 */
export type SimpleCondition = (steps: readonly ModeratorStep[]) => { value: unknown } | undefined;

type Evaluate = (steps: readonly ModeratorStep[]) => unknown;

/** What an operand evaluates to when JSONata's treatment of the value is outside the subset. */
const OUTSIDE = Symbol("outside the subset");

const TOKEN =
  /\s*(?:((?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\w$.])|"([^"\\]*)"|'([^'\\]*)'|(\$count)\(|([A-Za-z_]\w*)(?![\w$])|(!=|<=|>=|[=<>\-[\].)]))/y;
const RESERVED_NAMES = new Set(["and", "or", "in", "true", "false", "null"]);
const LITERAL_WORDS: Record<string, unknown> = { true: true, false: false, null: null };
const COMPARISONS = new Set(["=", "!=", "<", "<=", ">", ">="]);

type Token =
  | { kind: "number"; value: number }
  | { kind: "string"; value: string }
  | { kind: "count" }
  | { kind: "name"; value: string }
  | { kind: "symbol"; value: string };

export function parseSimpleCondition(source: string): SimpleCondition | undefined {
  const tokens = tokenize(source);
  if (tokens === undefined) return undefined;
  let position = 0;
  const peek = () => tokens[position];
  const isSymbol = (value: string) => {
    const token = peek();
    return token?.kind === "symbol" && token.value === value;
  };
  const isWord = (value: string) => {
    const token = peek();
    return token?.kind === "name" && token.value === value;
  };

  const operand = (): Evaluate | undefined => {
    const token = peek();
    if (token === undefined) return undefined;
    position++;
    if (token.kind === "number" || token.kind === "string") {
      const { value } = token;
      return () => value;
    }
    if (token.kind === "symbol" && token.value === "-") {
      const number = peek();
      if (number?.kind !== "number") return undefined;
      position++;
      const value = -number.value;
      return () => value;
    }
    if (token.kind === "count") {
      const role = peek();
      if (role?.kind !== "string") return undefined;
      position++;
      if (!isSymbol(")")) return undefined;
      position++;
      const name = role.value;
      return (steps) => countVisits(steps, name);
    }
    if (token.kind !== "name") return undefined;
    if (Object.hasOwn(LITERAL_WORDS, token.value)) {
      const value = LITERAL_WORDS[token.value];
      return () => value;
    }
    if (token.value !== "steps" || !isSymbol("[")) return undefined;
    position++;
    let negative = false;
    if (isSymbol("-")) {
      negative = true;
      position++;
    }
    const index = peek();
    if (index?.kind !== "number" || !Number.isSafeInteger(index.value)) return undefined;
    position++;
    if (!isSymbol("]")) return undefined;
    position++;
    const names: string[] = [];
    while (isSymbol(".")) {
      position++;
      const name = peek();
      if (name?.kind !== "name" || RESERVED_NAMES.has(name.value)) return undefined;
      names.push(name.value);
      position++;
    }
    return stepPath(negative ? -index.value : index.value, names);
  };

  const comparison = (): Evaluate | undefined => {
    const left = operand();
    if (left === undefined) return undefined;
    const token = peek();
    if (token?.kind !== "symbol" || !COMPARISONS.has(token.value)) return left;
    position++;
    const right = operand();
    return right === undefined ? undefined : compare(token.value, left, right);
  };

  const joined = (word: "and" | "or", part: () => Evaluate | undefined): Evaluate | undefined => {
    let left = part();
    while (left !== undefined && isWord(word)) {
      position++;
      const right = part();
      if (right === undefined) return undefined;
      left = word === "and" ? and(left, right) : or(left, right);
    }
    return left;
  };

  const condition = joined("or", () => joined("and", comparison));
  if (condition === undefined || position !== tokens.length) return undefined;
  return (steps) => {
    const value = condition(steps);
    // A path to an object or a list: JSONata may give a sequence of it, not the value itself.
    return value === undefined || isScalar(value) ? { value } : undefined;
  };
}

function tokenize(source: string): Token[] | undefined {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const match = TOKEN.exec(source);
    if (match === null) return undefined;
    const [, number, doubleQuoted, singleQuoted, count, name, symbol] = match;
    if (number !== undefined) {
      const value = Number(number);
      if (!Number.isFinite(value)) return undefined;
      tokens.push({ kind: "number", value });
    } else if (doubleQuoted !== undefined) tokens.push({ kind: "string", value: doubleQuoted });
    else if (singleQuoted !== undefined) tokens.push({ kind: "string", value: singleQuoted });
    else if (count !== undefined) tokens.push({ kind: "count" });
    else if (name !== undefined) tokens.push({ kind: "name", value: name });
    else tokens.push({ kind: "symbol", value: symbol as string });
  }
  return tokens;
}

/** `steps[index].a.b`: a negative index counts from the end; a missing step or field is undefined. */
function stepPath(index: number, names: readonly string[]): Evaluate {
  return (steps) => {
    let value: unknown = steps[index < 0 ? steps.length + index : index];
    for (const name of names) {
      if (value === undefined) return undefined;
      // JSONata maps a path over arrays; the subset does not.
      if (Array.isArray(value)) return OUTSIDE;
      value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[name] : undefined;
    }
    return value;
  };
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function compare(operator: string, left: Evaluate, right: Evaluate): Evaluate {
  return (steps) => {
    const a = left(steps);
    if (a === OUTSIDE) return OUTSIDE;
    const b = right(steps);
    if (b === OUTSIDE) return OUTSIDE;
    if ((a !== undefined && !isScalar(a)) || (b !== undefined && !isScalar(b))) return OUTSIDE;
    if (operator === "=" || operator === "!=") {
      if (a === undefined || b === undefined) return false;
      return operator === "=" ? a === b : a !== b;
    }
    // JSONata orders two numbers or two strings; anything else is its type error, which it should report.
    const comparable = (value: unknown) =>
      value === undefined || typeof value === "number" || typeof value === "string";
    if (!comparable(a) || !comparable(b)) return OUTSIDE;
    if (a === undefined || b === undefined) return undefined;
    if (typeof a !== typeof b) return OUTSIDE;
    const x = a as number | string;
    const y = b as number | string;
    if (operator === "<") return x < y;
    if (operator === "<=") return x <= y;
    if (operator === ">") return x > y;
    return x >= y;
  };
}

/** JSONata's `$boolean` of a scalar, with undefined as false. */
function boolize(value: unknown): boolean | typeof OUTSIDE {
  if (value === undefined || value === null) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") return value.length > 0;
  return OUTSIDE;
}

function and(left: Evaluate, right: Evaluate): Evaluate {
  return (steps) => {
    const a = boolize(left(steps));
    if (a !== true) return a;
    return boolize(right(steps));
  };
}

function or(left: Evaluate, right: Evaluate): Evaluate {
  return (steps) => {
    const a = boolize(left(steps));
    if (a !== false) return a;
    return boolize(right(steps));
  };
}
