import type jsonata from "jsonata";
import { parseSimpleCondition, type SimpleCondition } from "./simple-condition.ts";

/**
 * Guard rails jsonata checks on every evaluation step. `timeout` is rewritten before each
 * evaluation (jsonata reads this object live), so one compiled expression serves any time limit.
 */
export interface ConditionLimits {
  timeout: number;
  stack: number;
  sequence: number;
}

export interface CompiledCondition {
  name: string;
  /** The fast path, when the expression is in its subset (see simple-condition.ts). */
  simple: SimpleCondition | undefined;
  /** The expression compiled by JSONata, on first call when there is a fast path. */
  jsonata: () => JsonataCondition;
}

export interface JsonataCondition {
  expression: jsonata.Expression;
  limits: ConditionLimits;
}

/** Deep enough for any honest condition; a non-terminating recursion hits it in milliseconds. */
const MAX_EVALUATION_DEPTH = 1000;
/** Histories are short; a range like `[1..9999999]` is a runaway, not a condition. */
const MAX_SEQUENCE_LENGTH = 1_000_000;

/**
 * Compiles a condition; throws jsonata's own error (`code`, `position`, `message`) when it does not
 * parse. An expression in the fast path's subset is valid JSONata, so JSONata compiles it only if an
 * evaluation needs it.
 */
export function compileCondition(name: string, source: string): CompiledCondition {
  const simple = parseSimpleCondition(source);
  if (simple === undefined) {
    const compiled = compileJsonata(source);
    return { name, simple, jsonata: () => compiled };
  }
  let compiled: JsonataCondition | undefined;
  return { name, simple, jsonata: () => (compiled ??= compileJsonata(source)) };
}

function compileJsonata(source: string): JsonataCondition {
  const limits: ConditionLimits = { timeout: 0, stack: MAX_EVALUATION_DEPTH, sequence: MAX_SEQUENCE_LENGTH };
  return { expression: loadJsonata()(source, limits), limits };
}

/** jsonata throws plain objects, not Errors; this reads what they carry. */
export function describeJsonataError(error: unknown): {
  code: string | null;
  message: string;
  position: number | null;
} {
  if (typeof error !== "object" || error === null) return { code: null, message: String(error), position: null };
  const fields = error as { code?: unknown; message?: unknown; position?: unknown };
  return {
    code: typeof fields.code === "string" ? fields.code : null,
    message: typeof fields.message === "string" ? fields.message : String(error),
    position: typeof fields.position === "number" ? fields.position : null,
  };
}

let jsonataModule: typeof jsonata | undefined;

/** Loaded on first use, not at import: jsonata costs tens of milliseconds that `uwf --version` should not pay. */
function loadJsonata(): typeof jsonata {
  jsonataModule ??= require("jsonata") as typeof jsonata;
  return jsonataModule;
}
