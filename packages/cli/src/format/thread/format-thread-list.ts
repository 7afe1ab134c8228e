import type { LeaseHolder, ListedThread, ListResult } from "@uwf/protocol";
import { type FitColumn, fitTable } from "../table/fit-table.ts";
import { createPalette } from "../text/create-palette.ts";
import { formatTimestamp } from "../text/format-duration.ts";
import { describeForkOrigin } from "./describe-fork-origin.ts";
import { formatBudget } from "./format-budget.ts";
import { describeOutcome } from "./format-step-result.ts";
import { threadStatusPaint } from "./thread-status-paint.ts";

export interface FormatThreadListOptions {
  /** The terminal's width: columns are said shorter, cut or left out to fit it (`list --wide`: undefined, all). */
  width?: number;
}

/**
 * `uwf list` as a table. Columns that only some pages need (BUDGET, FORKED FROM, the lease holder's)
 * appear only when a listed thread has one, and BRANCH OF only when a branch is listed. On a narrow terminal the table gives up, in this order:
 * the long UPDATED form, the lease times, BUDGET, UPDATED, some characters of STATUS, WORKFLOW, NEXT,
 * OUTCOME and HELD BY, then FORKED FROM, NEXT and OUTCOME, and STEPS. THREAD always stays whole: it is what the next command needs.
 */
export function formatThreadList(result: ListResult, color: boolean, options: FormatThreadListOptions = {}): string {
  const paint = createPalette(color);
  if (result.threads.length === 0)
    return result.total === 0 ? "no threads" : `no threads at offset ${result.offset} (of ${result.total})`;
  const statusColor = threadStatusPaint(paint);
  const threads = result.threads;
  const cells = (cell: (thread: ListedThread) => string) => threads.map(cell);
  const columns: FitColumn[] = [
    { header: "THREAD", cells: cells((thread) => thread.id) },
    {
      header: "STATUS",
      cells: cells(
        (thread) =>
          (statusColor[thread.status] ?? String)(thread.status) +
          (thread.failure === undefined ? "" : paint.dim(` (${thread.failure.code})`)) +
          (thread.deadline === undefined ? "" : paint.dim(` (until ${formatTimestamp(thread.deadline)})`)) +
          (thread.recoveredFrom === undefined ? "" : paint.dim(" (recovered)")),
      ),
      truncate: { at: 6, minWidth: "suspended".length },
    },
    { header: "WORKFLOW", cells: cells((thread) => thread.workflow), truncate: { at: 6, minWidth: 8 } },
    { header: "STEPS", cells: cells((thread) => String(thread.stepCount)), dropAt: 9 },
    { header: "NEXT", cells: cells((thread) => thread.next ?? ""), truncate: { at: 6, minWidth: 6 }, dropAt: 8 },
    ...(threads.some((thread) => thread.outcome !== undefined)
      ? [
          {
            header: "OUTCOME",
            cells: cells((thread) => (thread.outcome === undefined ? "" : describeOutcome(thread.outcome))),
            truncate: { at: 6, minWidth: 8 },
            dropAt: 8,
          },
        ]
      : []),
    {
      header: "UPDATED",
      cells: cells((thread) => formatTimestamp(thread.updatedAt)),
      compact: { at: 1, cells: cells((thread) => compactTimestamp(thread.updatedAt)) },
      dropAt: 5,
    },
  ];
  // The budget column only when the page holds a thread with one.
  if (threads.some((thread) => thread.budget !== undefined)) {
    columns.push({
      header: "BUDGET",
      cells: cells((thread) => (thread.budget === undefined ? "" : formatBudget(thread.budget))),
      dropAt: 4,
    });
  }
  // The lineage column only when it holds a fork.
  if (threads.some((thread) => thread.forkedFrom !== null)) {
    columns.push({
      header: "FORKED FROM",
      // An exploration's re-run (shown with `--explorations`) says so: `01J9ABCD… at step 4 (explore)`.
      cells: cells((thread) =>
        thread.forkedFrom === null
          ? ""
          : `${describeForkOrigin(thread.forkedFrom, { short: true })}${thread.exploredBy === undefined ? "" : " (explore)"}`,
      ),
      dropAt: 7,
    });
  }
  // The branch column only when the page holds a branch: `↳ security of 01JABCDE` (the parent's first 8 characters).
  if (threads.some((thread) => thread.branchOf !== undefined)) {
    columns.push({
      header: "BRANCH OF",
      cells: cells((thread) =>
        thread.branchOf === undefined
          ? ""
          : `↳ ${thread.branchOf.branch} of ${thread.branchOf.thread.slice(0, 8)} step ${thread.branchOf.step}`,
      ),
      truncate: { at: 6, minWidth: 10 },
      dropAt: 7,
    });
  }
  // And who steps it (`--running`) only when a thread has a lease holder.
  if (threads.some((thread) => thread.lease !== undefined)) {
    const leases = threads.map((thread) => leaseColumns(thread.lease));
    columns.push(
      { header: "HELD BY", cells: leases.map((lease) => lease[0]), truncate: { at: 6, minWidth: 10 } },
      { header: "SINCE", cells: leases.map((lease) => lease[1]), dropAt: 3 },
      { header: "UNTIL", cells: leases.map((lease) => lease[2]), dropAt: 2 },
    );
  }
  return fitTable(columns, options.width);
}

/** host:pid, since and until when (unless renewed) the thread's stepper holds its lease. */
function leaseColumns(lease: LeaseHolder | undefined): [string, string, string] {
  if (lease === undefined) return ["", "", ""];
  return [`${lease.host}:${lease.pid}`, formatTimestamp(lease.acquiredAt), formatTimestamp(lease.expiresAt)];
}

/** `11-26 15:29` for `2026-11-26T15:29:01.123Z`: the UPDATED column on a narrow terminal. */
function compactTimestamp(iso: string): string {
  return formatTimestamp(iso).slice(5, 16);
}
