import type { Store } from "@uwf/cas";
import type { ThreadCounts, ThreadRecord } from "@uwf/protocol";
import { isRoleBranch } from "./branch-steps.ts";

type CountedRecord = Pick<ThreadRecord, "stepCount" | "forkedFrom" | "branchOf">;

/**
 * The steps of a thread's own chain, by the one rule every view uses (docs/workflows.md#counting-steps):
 * `inherited` from the thread it was forked from (up to the fork point) or, for a `role:` branch, its
 * parent's steps up to the fan-out; `replaced`, a counterfactual fork's reply written at fork time (in
 * the chain, but no agent ran it); `taken`, the steps the thread ran itself. Reads nothing but the record.
 */
export function countChainSteps(
  record: CountedRecord,
): Pick<ThreadCounts, "steps" | "inherited" | "replaced" | "taken"> {
  const steps = record.stepCount;
  const branchShared = record.branchOf !== undefined && isRoleBranch(record) ? record.branchOf.step : 0;
  const forkPoint = record.forkedFrom?.step ?? 0;
  const replaced = record.forkedFrom?.replaced === true && forkPoint > 0 && forkPoint >= branchShared ? 1 : 0;
  const inherited = Math.min(steps, Math.max(branchShared, forkPoint) - replaced);
  return { steps, inherited, replaced, taken: Math.max(0, steps - inherited - replaced) };
}

/**
 * A thread's counts (ThreadCounts): its chain's (countChainSteps), and the steps every branch of it took,
 * nested fan-outs included, which with its own make what its `max_steps` counts. Reads the thread's
 * branch links and its branches' records from the ref store; no chain.
 */
export async function countThread(store: Pick<Store, "refs">, record: ThreadRecord): Promise<ThreadCounts> {
  const own = countChainSteps(record);
  const branchSteps = await countBranchSteps(store, record, new Set([record.id]));
  return { ...own, branchSteps, budgetSteps: own.taken + branchSteps };
}

async function countBranchSteps(store: Pick<Store, "refs">, record: ThreadRecord, seen: Set<string>): Promise<number> {
  if (record.stepCount === 0) return 0;
  let total = 0;
  for (const link of await store.refs.listBranches(record.id)) {
    if (seen.has(link.thread)) continue;
    seen.add(link.thread);
    const branch = await store.refs.getThread(link.thread);
    if (branch !== null) total += await countStepsWithBranches(store, branch, seen);
  }
  return total;
}

/** The steps a branch took and its own branches took (nested fan-outs), for a caller that read its record already. */
export async function countStepsWithBranches(
  store: Pick<Store, "refs">,
  branch: ThreadRecord,
  seen: Set<string> = new Set([branch.id]),
): Promise<number> {
  // A `role:` branch runs one role and never fans out: no branch links to read.
  const nested = isRoleBranch(branch) ? 0 : await countBranchSteps(store, branch, seen);
  return countChainSteps(branch).taken + nested;
}
