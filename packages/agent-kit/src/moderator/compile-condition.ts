import type jsonata from "jsonata";

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
  expression: jsonata.Expression;
  limits: ConditionLimits;
}

/** Deep enough for any honest condition; a non-terminating recursion hits it in milliseconds. */
const MAX_EVALUATION_DEPTH = 1000;
/** Histories are short; a range like `[1..9999999]` is a runaway, not a condition. */
const MAX_SEQUENCE_LENGTH = 1_000_000;

/** Compiles a JSONata expression; throws jsonata's own error (`code`, `position`, `message`) when it does not parse. */
export function compileCondition(name: string, source: string): CompiledCondition {
  const limits: ConditionLimits = { timeout: 0, stack: MAX_EVALUATION_DEPTH, sequence: MAX_SEQUENCE_LENGTH };
  const expression = loadJsonata()(source, limits);
  return { name, expression, limits };
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
