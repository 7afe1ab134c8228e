import type { BranchesJoinedEvent, BranchesStartedEvent } from "@uwf/protocol";
import { createPalette } from "./create-palette.ts";

/**
 * A fan-out's line: `#2 fanned out into 3 branches: security, speed, style (join synthesizer, all)`;
 * a join's: `#2 branches joined: security ended, speed ended, style ended` (then what was cancelled, or
 * the failure when the join cannot be met).
 */
export function formatBranchEvent(event: BranchesStartedEvent | BranchesJoinedEvent, color: boolean): string {
  const paint = createPalette(color);
  const step = paint.dim(`#${event.step}`);
  const count = `${event.branches.length} ${event.branches.length === 1 ? "branch" : "branches"}`;
  if (event.type === "branches-started") {
    const keys = event.branches.map((branch) => branch.key).join(", ");
    return `${step} fanned out into ${count}: ${keys} ${paint.dim(`(join ${event.join}, ${event.policy})`)}`;
  }
  const states = event.branches.map((branch) => `${branch.key} ${branch.status}`).join(", ");
  const cancelled = event.cancelled.length === 0 ? "" : paint.dim(`; cancelled: ${event.cancelled.join(", ")}`);
  const failure =
    event.failure === undefined ? "" : ` ${paint.red("failed")}: ${event.failure.code}: ${event.failure.message}`;
  return `${step} ${count} joined: ${states}${cancelled}${failure}`;
}
