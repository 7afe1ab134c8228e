import { type BudgetReport, budgetReport, type ShownThread, type ThreadRecord } from "@uwf/protocol";

/**
 * A record as `show`, `list` and `cancel` report it: named by `thread`, its budget with what the thread
 * spent (`budget`, as loadBudgetReport gives it: with its branches'; the record's own figures without it).
 */
export function toShownThread(
  record: ThreadRecord,
  budget: BudgetReport | undefined = budgetReport(record),
): ShownThread {
  const { budget: _limits, ...rest } = record;
  return { thread: record.id, ...rest, ...(budget === undefined ? {} : { budget }) };
}
