import { type BudgetReport, budgetReport, type ShownThread, type ThreadRecord } from "@uwf/protocol";

/**
 * A record as `show`, `list` and `cancel` report it: named by `thread`, its budget with what the thread
 * spent (`budget`, as loadBudgetReport gives it: with its branches'; the record's own figures without it).
 */
export function toShownThread(
  record: ThreadRecord,
  budget: BudgetReport | undefined = budgetReport(record),
): ShownThread {
  // The record's `deadline` is the ref store's index of due work (due at once until a pass reads the wait):
  // a shown `deadline` is the suspension's own, which `list` and `show` read from its head.
  const { budget: _limits, deadline: _due, ...rest } = record;
  return { thread: record.id, ...rest, ...(budget === undefined ? {} : { budget }) };
}
