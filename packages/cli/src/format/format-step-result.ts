import { describeReachedLimit } from "@uwf/engine";
import type { StepResult } from "@uwf/protocol";
import { createPalette } from "./create-palette.ts";
import { raiseLimitHint } from "./describe-budget.ts";

/**
 * Where the thread stands after `step`, `run`, `resume` or `log --follow`. Each step's own line was
 * printed as it finished (formatEvent); a command that failed adds nothing (its error is on stderr).
 */
export function formatStepResult(result: StepResult, color: boolean): string {
  if (result.error !== undefined) return "";
  const paint = createPalette(color);
  return `thread ${result.thread} ${paint.cyan(result.status)}${standing(result)}`;
}

function standing(result: StepResult): string {
  if (result.status === "ended") return " · it reached $END, nothing is left to step";
  const { budget } = result;
  if (result.status === "suspended" && budget?.exceeded != null) {
    const limit = budget.exceeded;
    const reached = describeReachedLimit(limit, budget[limit] ?? 0, budget.spent);
    return ` · budget: ${reached}; go on with \`${raiseLimitHint(result.thread, limit)}\``;
  }
  return result.next === null ? "" : ` · next: ${result.next}`;
}
