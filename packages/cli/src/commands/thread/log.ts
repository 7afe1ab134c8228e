import type { LogResult } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";
import { loadStepSummaries } from "../../engine/load-step-summaries.ts";
import { resolveThread } from "../../engine/resolve-thread.ts";
import { formatLog } from "../../format/format-log.ts";

export async function logCommand(options: { thread: string }, context: CommandContext) {
  const store = await context.openStore({ create: false });
  const record = await resolveThread(store.refs, options.thread);
  const steps = await loadStepSummaries(store, record.head);
  const result: LogResult = {
    thread: record.id,
    steps,
    ...(record.failedUsage === undefined ? {} : { failedUsage: record.failedUsage }),
  };
  return { result, format: (value: LogResult, color: boolean) => formatLog(value, color) };
}
