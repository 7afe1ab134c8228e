import { SUSPEND } from "@uwf/protocol";
import type { ModeratorStep } from "./moderator-history.ts";

/**
 * The helpers DESIGN §2 promises conditions: `$last(role)` and `$first(role)` (that role's
 * newest / oldest output) and `$count(role)`. `$count` shadows JSONata's built-in, so given
 * anything but a role name it still counts a sequence (`$count(steps)` keeps working).
 */
export function historyFunctions(steps: readonly ModeratorStep[]): Record<string, (value: unknown) => unknown> {
  return {
    last: (role) => steps.findLast((step) => step.role === role)?.output,
    first: (role) => steps.find((step) => step.role === role)?.output,
    count: (value) => {
      if (typeof value === "string") return countVisits(steps, value);
      if (value === undefined) return 0;
      return Array.isArray(value) ? value.length : 1;
    },
  };
}

/**
 * `$count(role)`: the role's completed visits. A `$SUSPEND` reply is not one: the role runs again
 * on `uwf resume` and that step completes the visit, so a loop cap such as `$count("fixer") >= 3`
 * does not fire a round early because the fixer once stopped to ask a question.
 */
export function countVisits(steps: readonly ModeratorStep[], role: string): number {
  let count = 0;
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index] as ModeratorStep;
    if (step.role !== role) continue;
    // A suspended step is always followed by its role's answered re-run (or is the newest step), so
    // only those steps' outputs need reading: a long thread's history loads lazily, output by output.
    const next = steps[index + 1];
    if (next !== undefined && next.role !== role) count++;
    else if (step.output.$status !== SUSPEND) count++;
  }
  return count;
}
