import type { BranchesJoinedEvent, BranchesStartedEvent } from "@uwf/protocol";
import { createPalette } from "../text/create-palette.ts";

/**
 * A fan-out's line: `#2 fanned out into 3 branches: security, speed, style (join synthesizer, all)`;
 * a join's: `#2 branches joined: security ended, speed ended, style ended` (then what was cancelled, or
 * the failure when the join cannot be met). A fan-out into many branches names the first
 * MAX_LISTED_BRANCHES and counts the rest, and its join counts them by status (`298 ended, 2 failed`),
 * so a step's line stays one short line (`--json` and `--jsonl` carry every branch).
 */
/** The most branches a fan-out's or a join's line names; past it, the rest are counted (`… and 292 more`). */
export const MAX_LISTED_BRANCHES = 8;

export function formatBranchEvent(event: BranchesStartedEvent | BranchesJoinedEvent, color: boolean): string {
  const paint = createPalette(color);
  const step = paint.dim(`#${event.step}`);
  const count = `${event.branches.length} ${event.branches.length === 1 ? "branch" : "branches"}`;
  if (event.type === "branches-started") {
    const keys = listSome(event.branches.map((branch) => branch.key));
    return `${step} fanned out into ${count}: ${keys} ${paint.dim(`(join ${event.join}, ${event.policy})`)}`;
  }
  const states =
    event.branches.length <= MAX_LISTED_BRANCHES
      ? event.branches.map((branch) => `${branch.key} ${branch.status}`).join(", ")
      : countByStatus(event.branches.map((branch) => branch.status));
  const cancelled = event.cancelled.length === 0 ? "" : paint.dim(`; cancelled: ${listSome(event.cancelled)}`);
  const failure =
    event.failure === undefined ? "" : ` ${paint.red("failed")}: ${event.failure.code}: ${event.failure.message}`;
  return `${step} ${count} joined: ${states}${cancelled}${failure}`;
}

/** `a, b, c`, or past MAX_LISTED_BRANCHES `a, b, …, h and 292 more`. */
function listSome(names: readonly string[]): string {
  if (names.length <= MAX_LISTED_BRANCHES) return names.join(", ");
  return `${names.slice(0, MAX_LISTED_BRANCHES).join(", ")} and ${names.length - MAX_LISTED_BRANCHES} more`;
}

/** `298 ended, 2 failed`, in the order the statuses first appear. */
function countByStatus(statuses: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count} ${status}`).join(", ");
}
