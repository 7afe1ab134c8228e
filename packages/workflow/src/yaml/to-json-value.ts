import { findLoneSurrogate } from "@uwf/protocol";

export type ToJsonValueResult =
  | { success: true; value: unknown }
  | {
      success: false;
      /** Where the value sits: `a.b[2]`, or "" for the value itself. */
      path: string;
      problem: string;
    };

/** The largest integer a JSON number carries exactly in every reader (2^53 - 1). */
const LARGEST_EXACT_INTEGER = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A parsed YAML value (parsed with `intAsBigInt`, so an integer literal arrives exactly) as a
 * JSON value, or the first number JSON cannot carry: `.inf` and `.nan`, which JSON.stringify
 * would silently turn into `null` (and a literal too large for a number, `1e3000000`, which parses as
 * one), integers beyond ±(2^53 - 1), which a number would round, and lone surrogates (a `"\ud800"`
 * escape) in a string or a key, which UTF-8 and canonical JSON cannot carry.
 * Refused rather than changed: the user quotes them to keep them as text.
 */
export function toJsonValue(value: unknown): ToJsonValueResult {
  const problems: { path: string; problem: string }[] = [];
  const converted = convert(value, "", problems);
  const first = problems[0];
  return first === undefined ? { success: true, value: converted } : { success: false, ...first };
}

function convert(value: unknown, path: string, problems: { path: string; problem: string }[]): unknown {
  if (problems.length > 0) return value;
  if (typeof value === "bigint") {
    if (value > LARGEST_EXACT_INTEGER || value < -LARGEST_EXACT_INTEGER) {
      problems.push({
        path,
        problem: `${value} is beyond 2^53, so JSON cannot carry it exactly; quote it to keep it as text`,
      });
    }
    return Number(value);
  }
  if (typeof value === "number" && !Number.isFinite(value)) {
    const written = Number.isNaN(value) ? ".nan" : value > 0 ? ".inf" : "-.inf";
    // `1e3000000` parses as an infinity too: say so, since the user did not write `.inf`.
    const what = Number.isNaN(value) ? written : `${written} (or a number too large to hold)`;
    problems.push({ path, problem: `${what} is not a number JSON can carry; quote it to keep it as text` });
    return value;
  }
  if (typeof value === "string") {
    const lone = findLoneSurrogate(value);
    if (lone !== -1) problems.push({ path, problem: loneSurrogateProblem(value, lone) });
    return value;
  }
  if (Array.isArray(value)) return value.map((item, index) => convert(item, `${path}[${index}]`, problems));
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const lone = findLoneSurrogate(key);
      if (lone !== -1) {
        problems.push({ path, problem: `a field's name holds ${loneSurrogateProblem(key, lone)}` });
        return value;
      }
      Object.defineProperty(copy, key, {
        value: convert(inner, path === "" ? key : `${path}.${key}`, problems),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  return value;
}

/** `\ud800, half of a UTF-16 surrogate pair…`: escaped, so the message can be printed and stored. */
function loneSurrogateProblem(text: string, index: number): string {
  const escaped = `\\u${text.charCodeAt(index).toString(16).padStart(4, "0")}`;
  return `${escaped} is half of a UTF-16 surrogate pair without its other half, which JSON cannot carry: write the character itself, or leave it out`;
}
