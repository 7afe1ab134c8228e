import { ConditionFailedError } from "../errors/condition-failed-error.ts";
import { ConditionTimeoutError } from "../errors/condition-timeout-error.ts";
import type { CompiledCondition } from "./compile-condition.ts";
import { describeJsonataError } from "./compile-condition.ts";
import { historyFunctions } from "./history-functions.ts";
import { isTruthy } from "./is-truthy.ts";
import type { ModeratorHistory } from "./moderator-history.ts";

/** jsonata's code for "ran past options.timeout". */
const TIMEOUT_CODE = "D1012";

/**
 * Evaluates a condition against `{ start, steps }` (DESIGN §2), plus `branches` when the history
 * has them (routing a fan-out's join role), and applies the truthiness rule:
 * through the fast path when it gives an answer, else through JSONata. JSONata checks the time
 * limit at every evaluation step, so a loop fails instead of hanging. A timer could not do this:
 * the evaluation chains microtasks and never yields to one.
 */
export async function evaluateCondition(
  condition: CompiledCondition,
  history: ModeratorHistory,
  timeoutMs: number,
): Promise<boolean> {
  try {
    const simple = condition.simple?.(history.steps);
    if (simple !== undefined) return isTruthy(simple.value);
    const { expression, limits } = condition.jsonata();
    limits.timeout = timeoutMs;
    const input = conditionInput(history);
    return isTruthy(await expression.evaluate(input, historyFunctions(history.steps)));
  } catch (error) {
    const { code, message } = describeJsonataError(error);
    if (code === TIMEOUT_CODE) throw new ConditionTimeoutError(condition.name, timeoutMs);
    throw new ConditionFailedError(condition.name, message, code);
  }
}

/** What a condition's expression reads: `start`, `steps`, and `branches` at a fan-out's join. */
export function conditionInput(history: ModeratorHistory): Record<string, unknown> {
  const input: Record<string, unknown> = { start: history.start, steps: history.steps };
  if (history.branches !== undefined) input.branches = history.branches;
  return input;
}
