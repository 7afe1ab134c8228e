import type { BranchGroup, LogResult } from "@uwf/protocol";
import { formatTable } from "../table/format-table.ts";
import { createPalette } from "../text/create-palette.ts";
import { formatDuration, formatTimestamp } from "../text/format-duration.ts";
import { formatUsage } from "../text/format-usage.ts";
import { formatBudget } from "./format-budget.ts";
import { describeOutcome } from "./format-step-result.ts";

export function formatLog(result: LogResult, color: boolean): string {
  const paint = createPalette(color);
  const failed = result.failedUsage === undefined ? "" : formatUsage(result.failedUsage);
  const failedLine = failed === "" ? "" : `\n${paint.dim("failed runs (not steps):")} ${failed}`;
  const budgetLine = result.budget === undefined ? "" : `\n${paint.dim("budget:")} ${formatBudget(result.budget)}`;
  const outcomeLine =
    result.outcome === undefined ? "" : `\n${paint.dim("outcome:")} ${describeOutcome(result.outcome)}`;
  const closing = outcomeLine + failedLine + budgetLine;
  const attempts = (result.failed ?? []).map((attempt) => [
    String(attempt.number),
    attempt.run ?? "",
    paint.bold(attempt.role ?? "?"),
    "",
    paint.red(`FAILED ${attempt.code}`),
    formatTimestamp(attempt.failedAt),
    "",
    `${attempt.attempts} attempt${attempt.attempts === 1 ? "" : "s"}: ${cut(attempt.message)}`,
  ]);
  if (result.steps.length === 0 && attempts.length === 0) return `thread ${result.thread} has no steps yet${closing}`;
  const fanOuts = new Map((result.branches ?? []).map((group) => [group.step, group]));
  const joins = new Map(
    (result.branches ?? []).flatMap((group) => (group.joinedAt === null ? [] : [[group.joinedAt, group]])),
  );
  const rows = result.steps.flatMap((step) => {
    const fanOut = fanOuts.get(step.number);
    const join = joins.get(step.number);
    const mark =
      fanOut !== undefined
        ? paint.cyan(` ⇉ fan-out (${fanOut.branches.length})`)
        : join !== undefined
          ? paint.cyan(` ⇇ join of step ${join.step}`)
          : "";
    const row = [
      String(step.number),
      step.address,
      paint.bold(step.role) + mark,
      step.agent,
      step.status ?? "",
      formatTimestamp(step.startedAt),
      formatDuration(step.durationMs),
      formatUsage(step.usage),
    ];
    return [row, ...(fanOut === undefined ? [] : branchRows(fanOut))];
  });
  // A failed attempt's STEP column holds the run it left (`uwf show RUN`): no step node was written.
  return (
    formatTable(["#", "STEP", "ROLE", "AGENT", "STATUS", "STARTED", "TOOK", "USAGE"], [...rows, ...attempts]) + closing
  );
}

/** A fan-out's branches under its step: key, thread, what it runs, status or outcome, its own steps, cost. */
function branchRows(group: BranchGroup): string[][] {
  return group.branches.map((branch) => [
    "",
    branch.thread,
    `  ↳ ${branch.key}`,
    branch.role ?? `workflow ${branch.workflow ?? "?"}`,
    branch.outcome !== null ? describeOutcome(branch.outcome) : branch.status,
    "",
    `${branch.steps} ${branch.steps === 1 ? "step" : "steps"}`,
    `$${branch.usage.costUsd.toFixed(4)}`,
  ]);
}

/** The first line of a failure's message, cut to fit a table. */
function cut(message: string): string {
  const line = message.split("\n")[0] ?? "";
  return line.length <= 60 ? line : `${line.slice(0, 59)}…`;
}
