import type { Store } from "@uwf/cas";
import type { BudgetReport, ThreadRecord } from "@uwf/protocol";
import { spentWithBranches } from "../branches/parent-budget.ts";

/**
 * The thread's budget with what it spent against it, as every view reports it and as its steps are
 * checked: the steps countThread counts (its own taken and its branches', nested ones too) and its
 * usage with its branches'. Undefined for a thread without a budget.
 */
export async function loadBudgetReport(
  store: Pick<Store, "refs">,
  record: ThreadRecord,
): Promise<BudgetReport | undefined> {
  if (record.budget === undefined) return undefined;
  return { ...record.budget, spent: await spentWithBranches(store, record) };
}
