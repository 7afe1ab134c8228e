import type { EvalThreadView } from "@uwf/protocol";
import {
  type CompiledCondition,
  compileCondition,
  describeJsonataError,
  historyFunctions,
  isTruthy,
  type ModeratorStep,
} from "@uwf/workflow";
import { compileAssertionExpression } from "../assertions/parse-assertion.ts";
import { type AssertionResult, errored, passedOrFailed } from "./assertion-result.ts";

/** How long one expression may take on one thread before it errs. */
export const DEFAULT_EXPRESSION_TIMEOUT_MS = 2_000;

/** jsonata's code for "ran past options.timeout". */
const TIMEOUT_CODE = "D1012";

/** A JSONata assertion compiled once, evaluated on each thread. */
export interface CompiledExpression {
  evaluate(view: EvalThreadView): Promise<AssertionResult>;
}

/**
 * Compiles an assertion's expression (throws InvalidAssertionError when it does not parse). Its
 * evaluation over a view: truthy passes and falsy fails (the moderator's truthiness: `[]` and `{}` are
 * true), a number in [0, 1] is a score that passes at 0.5; another number, an error or running past
 * `timeoutMs` errs. `$count(role)`, `$last(role)` and `$first(role)` work as in conditions.
 * The moderator's fast path answers the comparisons of step fields it covers without JSONata.
 */
export function compileExpression(
  name: string,
  expr: string,
  timeoutMs = DEFAULT_EXPRESSION_TIMEOUT_MS,
): CompiledExpression {
  compileAssertionExpression(name, expr);
  const condition: CompiledCondition = compileCondition(name, expr);
  return {
    async evaluate(view) {
      let value: unknown;
      // The fast path and the history functions read only each step's role and output.
      const steps = view.steps as readonly Pick<ModeratorStep, "role" | "output">[] as readonly ModeratorStep[];
      try {
        const simple = condition.simple?.(steps);
        if (simple !== undefined) value = simple.value;
        else {
          const { expression, limits } = condition.jsonata();
          limits.timeout = timeoutMs;
          value = await expression.evaluate(view, historyFunctions(steps));
        }
      } catch (error) {
        const { code, message } = describeJsonataError(error);
        if (code === TIMEOUT_CODE) return errored(`the expression ran past ${timeoutMs} ms`);
        return errored(`the expression failed: ${message}${code === null ? "" : ` (${code})`}`);
      }
      return judgeValue(value);
    },
  };
}

function judgeValue(value: unknown): AssertionResult {
  if (typeof value === "number" && value !== 0 && !Number.isNaN(value)) {
    if (value < 0 || value > 1) return errored(`the expression gave ${value}: a number must be a score in [0, 1]`);
    return passedOrFailed(value >= 0.5, value);
  }
  return passedOrFailed(isTruthy(value));
}
