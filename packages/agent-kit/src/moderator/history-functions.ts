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
      if (typeof value === "string") return steps.filter((step) => step.role === value).length;
      if (value === undefined) return 0;
      return Array.isArray(value) ? value.length : 1;
    },
  };
}
