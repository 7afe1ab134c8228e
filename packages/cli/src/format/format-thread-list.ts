import type { LeaseHolder, ListResult } from "@uwf/protocol";
import { createPalette } from "./create-palette.ts";
import { formatBudget } from "./describe-budget.ts";
import { describeForkOrigin } from "./describe-fork-origin.ts";
import { formatTimestamp } from "./format-duration.ts";
import { describeOutcome } from "./format-step-result.ts";
import { formatTable } from "./format-table.ts";

export function formatThreadList(result: ListResult, color: boolean): string {
  const paint = createPalette(color);
  if (result.threads.length === 0)
    return result.total === 0 ? "no threads" : `no threads at offset ${result.offset} (of ${result.total})`;
  const statusColor: Record<string, (text: string) => string> = {
    active: paint.green,
    suspended: paint.yellow,
    ended: paint.dim,
    cancelled: paint.dim,
    failed: paint.red,
    corrupt: paint.red,
  };
  // The lineage column only when the page holds a fork.
  const forks = result.threads.some((thread) => thread.forkedFrom !== null);
  // And the budget column only when it holds a thread with one.
  const budgets = result.threads.some((thread) => thread.budget !== undefined);
  // And the outcome column only when it holds a thread that ended with one.
  const outcomes = result.threads.some((thread) => thread.outcome !== undefined);
  // And who steps it (`--running`) only when a thread has a lease holder.
  const holders = result.threads.some((thread) => thread.lease !== undefined);
  const rows = result.threads.map((thread) => [
    thread.id,
    (statusColor[thread.status] ?? String)(thread.status) +
      (thread.failure === undefined ? "" : paint.dim(` (${thread.failure.code})`)) +
      (thread.recoveredFrom === undefined ? "" : paint.dim(" (recovered)")),
    thread.workflow,
    String(thread.stepCount),
    thread.next ?? "",
    ...(outcomes ? [thread.outcome === undefined ? "" : describeOutcome(thread.outcome)] : []),
    formatTimestamp(thread.updatedAt),
    ...(budgets ? [thread.budget === undefined ? "" : formatBudget(thread.budget)] : []),
    ...(forks ? [thread.forkedFrom === null ? "" : describeForkOrigin(thread.forkedFrom, { short: true })] : []),
    ...(holders ? leaseColumns(thread.lease) : []),
  ]);
  const header = [
    "THREAD",
    "STATUS",
    "WORKFLOW",
    "STEPS",
    "NEXT",
    ...(outcomes ? ["OUTCOME"] : []),
    "UPDATED",
    ...(budgets ? ["BUDGET"] : []),
    ...(forks ? ["FORKED FROM"] : []),
    ...(holders ? ["HELD BY", "SINCE", "UNTIL"] : []),
  ];
  return formatTable(header, rows);
}

/** host:pid, since and until when (unless renewed) the thread's stepper holds its lease. */
function leaseColumns(lease: LeaseHolder | undefined): string[] {
  if (lease === undefined) return ["", "", ""];
  return [`${lease.host}:${lease.pid}`, formatTimestamp(lease.acquiredAt), formatTimestamp(lease.expiresAt)];
}
