import type { FanOutNode, ThreadStatus } from "@uwf/protocol";
import { describePolicy } from "./read-fan-out.ts";

/** A branch as the policy weighs it; status null for a branch whose record is gone (counted as failed). */
export interface BranchStanding {
  key: string;
  thread: string;
  status: ThreadStatus | null;
}

/**
 * What a fan-out's policy says now: keep waiting; join (cancelling the branches the join no longer
 * needs); or fail the parent, naming the branch that made the policy unreachable (null when no single
 * one did: too few can still end).
 */
export type JoinDecision =
  | { kind: "pending" }
  | { kind: "join"; cancel: string[] }
  | { kind: "fail"; branch: BranchStanding | null; message: string; cancel: string[] };

const SETTLED: ReadonlySet<ThreadStatus | null> = new Set(["ended", "failed", "cancelled", null]);

/** A branch the join no longer waits for: ended, failed, cancelled, or gone (null). */
export function isSettled(status: ThreadStatus | null): boolean {
  return SETTLED.has(status);
}

/**
 * DESIGN §4's join policies: `all` (every branch ended; a failed or cancelled one fails the join once
 * the others settle, or at once with `failFast`), `all-settled` (every branch ended, failed or was
 * cancelled), `any` (the first that ends), `quorum: N` (N ended). A suspended branch is not settled: it
 * waits for its own answer.
 */
export function decideJoin(join: FanOutNode["join"], branches: readonly BranchStanding[]): JoinDecision {
  const pending = branches.filter((branch) => !SETTLED.has(branch.status));
  const ended = branches.filter((branch) => branch.status === "ended");
  const broken = branches.filter((branch) => branch.status !== "ended" && SETTLED.has(branch.status));
  const cancelPending = pending.map((branch) => branch.thread);
  const { policy } = join;
  if (policy === "all") {
    const first = broken[0];
    if (first !== undefined && (join.failFast || pending.length === 0)) {
      return { kind: "fail", branch: first, message: brokenMessage(first), cancel: cancelPending };
    }
    return pending.length === 0 ? { kind: "join", cancel: [] } : { kind: "pending" };
  }
  if (policy === "all-settled") return pending.length === 0 ? { kind: "join", cancel: [] } : { kind: "pending" };
  const needed = policy === "any" ? 1 : policy.quorum;
  if (ended.length >= needed) return { kind: "join", cancel: cancelPending };
  if (ended.length + pending.length < needed) {
    const message = `the join's policy ${describePolicy(policy)} can no longer hold: ${ended.length} of ${branches.length} branches ended, ${needed} needed`;
    return { kind: "fail", branch: broken.length === 1 ? (broken[0] ?? null) : null, message, cancel: cancelPending };
  }
  return { kind: "pending" };
}

function brokenMessage(branch: BranchStanding): string {
  const what = branch.status === null ? "is gone (its record was deleted)" : `was ${branch.status}`;
  return `branch ${branch.key} (${branch.thread}) ${what}, and the join's policy is all`;
}
