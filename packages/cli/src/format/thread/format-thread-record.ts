import type { BranchGroup, ShownThread, ThreadFailure, ThreadOutcome } from "@uwf/protocol";
import { createPalette, type Palette } from "../text/create-palette.ts";
import { formatUsage } from "../text/format-usage.ts";
import { describeForkOrigin } from "./describe-fork-origin.ts";
import { formatBudget } from "./format-budget.ts";
import { describeOutcome } from "./format-step-result.ts";
import { formatSuspension } from "./format-suspension.ts";

/** `wait`: a suspension's deadline (its role's `suspendTimeout`), shown under its status. */
export function formatThreadRecord(
  thread: ShownThread,
  color: boolean,
  wait: { deadline: string; after: string } | null = null,
): string {
  const paint = createPalette(color);
  const rows: Array<[string, string]> = [
    ["thread", thread.id],
    ["workflow", `${thread.workflow} (${thread.workflowAddress})`],
    ["status", thread.status + (thread.reason === null ? "" : ` — ${thread.reason}`)],
    ...(wait === null
      ? []
      : [
          ["deadline", `${wait.deadline} (suspendTimeout ${wait.after}): then its $timeout edge, or it fails`] as [
            string,
            string,
          ],
        ]),
    ...(thread.failure === undefined ? [] : failureRows(thread.id, thread.failure)),
    ...(thread.outcome === undefined ? [] : [outcomeRow(thread.outcome)]),
    ...(thread.queued === true ? [["queued", "yes: `uwf worker` steps it"] as [string, string]] : []),
    ["next", thread.next ?? "—"],
    ["steps", String(thread.stepCount)],
    ["head", thread.head],
    ["start", thread.start],
    ["created", thread.createdAt],
    ["updated", thread.updatedAt],
  ];
  if (thread.inputs !== undefined) {
    rows.push([
      "inputs",
      Object.entries(thread.inputs)
        .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
        .join(" "),
    ]);
  }
  if (thread.forkedFrom !== null) rows.push(["forked from", describeForkOrigin(thread.forkedFrom)]);
  if (thread.forkedFrom?.workflow !== undefined) {
    rows.push([
      "version",
      `forked onto ${thread.workflow}@${thread.workflowAddress} from workflow ${thread.forkedFrom.workflow} (its parent's)`,
    ]);
  }
  if (thread.scheduledBy !== undefined) {
    rows.push(["scheduled by", `schedule ${thread.scheduledBy.schedule}, fired for ${thread.scheduledBy.fireTime}`]);
  }
  if (thread.branchOf !== undefined) {
    const { branch, thread: parent, step, role } = thread.branchOf;
    rows.push(["branch of", `branch ${branch} of ${parent} at step ${step}${role === null ? "" : ` (role ${role})`}`]);
  }
  const usage = formatUsage(thread.usage);
  if (usage !== "") rows.push(["usage", usage]);
  const failed = thread.failedUsage === undefined ? "" : formatUsage(thread.failedUsage);
  if (failed !== "") rows.push(["failed runs", `${failed} (included in usage)`]);
  if (thread.budget !== undefined) rows.push(["budget", formatBudget(thread.budget)]);
  const lines = rows.map(([key, value]) => `${paint.dim(key.padEnd(12))}${value}`);
  if (thread.suspension !== undefined) {
    lines.push("", paint.bold(`${thread.suspension.role} asks: ${thread.suspension.reason ?? ""}`));
    lines.push(...formatSuspension(thread.id, thread.suspension));
  }
  for (const group of thread.branches ?? []) lines.push("", ...formatBranchGroup(group, paint));
  return lines.join("\n");
}

/**
 * A fan-out and its branches, one line each:
 *
 *     step 2 fanned out into 3 branches (parallel), join synthesizer (all): joined at step 3
 *       security  01JB…  ended  reviewer ok  1 step  $0.0000
 */
export function formatBranchGroup(group: BranchGroup, paint: Palette): string[] {
  const count = `${group.branches.length} ${group.branches.length === 1 ? "branch" : "branches"}`;
  const state = group.joinedAt === null ? "pending" : `joined at step ${group.joinedAt}`;
  const head = `step ${group.step} fanned out into ${count} (${group.kind}), join ${group.join} (${group.policy}): ${state}`;
  const keyWidth = Math.max(0, ...group.branches.map((branch) => branch.key.length));
  const lines = [paint.bold(head)];
  for (const branch of group.branches) {
    const steps = `${branch.steps} ${branch.steps === 1 ? "step" : "steps"}`;
    const parts = [branch.key.padEnd(keyWidth), branch.thread, branch.status];
    if (branch.outcome !== null) parts.push(describeOutcome(branch.outcome));
    parts.push(steps, `$${branch.usage.costUsd.toFixed(4)}`);
    if (branch.error !== null) parts.push(paint.dim(`${branch.error.code}: ${branch.error.message}`));
    lines.push(`  ${parts.join("  ")}`);
  }
  if (group.branches.length === 0)
    lines.push(paint.dim("  (no branches yet: the next `uwf step` of the thread makes them)"));
  return lines;
}

/** Why the thread's step was given up on, the run it left, and how to go on. */
function failureRows(thread: string, failure: ThreadFailure): Array<[string, string]> {
  const attempts = `${failure.attempts} attempt${failure.attempts === 1 ? "" : "s"}`;
  const rows: Array<[string, string]> = [
    [
      "failure",
      failure.code === "suspend-timeout"
        ? `${failure.code}: ${failure.message} (${failure.failedAt}; \`uwf resume ${thread} -p …\` still answers it)`
        : `${failure.code}: ${failure.message} (${attempts}, ${failure.failedAt}; \`uwf step ${thread}\` retries)`,
    ],
  ];
  if (failure.run != null) rows.push(["failed run", `${failure.run} (\`uwf show ${failure.run}\`)`]);
  return rows;
}

/** How the thread ended: the role, its `$status`, and the `$END` edge (its index, and its key or condition). */
function outcomeRow(outcome: ThreadOutcome): [string, string] {
  const { edge } = outcome;
  if (edge === null) return ["outcome", `${describeOutcome(outcome)} (a branch's one reply)`];
  const by =
    edge.key !== null ? `$status ${edge.key}` : edge.condition !== null ? `condition ${edge.condition}` : "always";
  return ["outcome", `${describeOutcome(outcome)} (edge ${edge.index} of ${outcome.role}: ${by})`];
}
