import { budgetReport, type ShownThread, type ThreadRecord } from "@uwf/protocol";

/** A record as `show`, `list` and `cancel` report it: named by `thread`, its budget with what the thread spent. */
export function toShownThread(record: ThreadRecord): ShownThread {
  const { budget: _limits, ...rest } = record;
  const budget = budgetReport(record);
  return { thread: record.id, ...rest, ...(budget === undefined ? {} : { budget }) };
}
