import type { ThreadOutcome, ThreadRecord } from "@uwf/protocol";

/**
 * The steps a branch made of its own: a `role:` branch's chain goes through its parent's fan-out step
 * (the steps up to it are the parent's); a `workflow:` branch's chain is its own from the start.
 */
export function ownBranchSteps(record: Pick<ThreadRecord, "stepCount" | "branchOf">): number {
  const shared = record.branchOf?.role === null || record.branchOf === undefined ? 0 : record.branchOf.step;
  return Math.max(0, record.stepCount - shared);
}

/** Whether a thread is a `role:` branch: one step of a role, whose reply ends it without following an edge. */
export function isRoleBranch(record: Pick<ThreadRecord, "branchOf">): boolean {
  return record.branchOf !== undefined && record.branchOf.role !== null;
}

/** How a `role:` branch ended: its role and its reply's `$status` (null when not a plain value), by no edge. */
export function branchOutcome(role: string, fields: Record<string, unknown>): ThreadOutcome {
  const status = fields.$status;
  const plain = typeof status === "string" || typeof status === "number" || typeof status === "boolean";
  return { role, status: plain ? String(status) : null, edge: null };
}
