import { resolveThread, waitForThreads } from "@uwf/engine";
import type { ThreadRecord, WaitedThread, WaitResult } from "@uwf/protocol";
import { WaitTimeoutError } from "../../../errors/wait-timeout-error.ts";
import { EXIT_BUSY, EXIT_FAILED, EXIT_OK, EXIT_SUSPENDED, mostSevereExitCode } from "../../../exit-codes.ts";
import { formatWaitResult } from "../../../format/runs/format-wait-result.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";

export interface WaitCommandOptions {
  threads: string[];
  /** `--timeout S`: give up after this many seconds (exit 75). */
  timeout?: number;
}

/**
 * `uwf wait T…`: blocks until every thread has ended, suspended, failed or was cancelled, then exits
 * 0 when each ended, 20 when one is suspended (none failed), 1 when one failed or was cancelled — the
 * most severe of them for several — so `uwf wait "$T" && deploy` composes. Every thread is resolved
 * first; a name that matches none fails the command before it waits. `--timeout` gives up with
 * WaitTimeoutError (exit 75), the result still printed.
 */
export async function waitCommand(
  options: WaitCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<WaitResult>> {
  const store = await context.openStore({ create: false });
  const ids: string[] = [];
  for (const reference of options.threads) {
    const { id } = await resolveThread(store.refs, reference);
    if (!ids.includes(id)) ids.push(id);
  }
  const { records, timedOut } = await waitForThreads({
    refs: store.refs,
    threads: ids,
    signal: context.signal,
    ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout * 1000 }),
  });
  const threads = records.map(toWaitedThread);
  const result: WaitResult = { threads, exitCode: mostSevereExitCode(threads.map((thread) => thread.exitCode)) };
  const stillActive = records.filter((record) => record.status === "active").map((record) => record.id);
  return {
    result,
    format: formatWaitResult,
    exitCode: result.exitCode,
    ...(timedOut ? { error: new WaitTimeoutError(options.timeout ?? 0, stillActive) } : {}),
  };
}

/** The exit code a thread standing so counts as; 75 for one still active (the wait timed out). */
const EXIT_CODE_BY_STATUS: Readonly<Record<ThreadRecord["status"], number>> = {
  active: EXIT_BUSY,
  waiting: EXIT_BUSY,
  ended: EXIT_OK,
  suspended: EXIT_SUSPENDED,
  failed: EXIT_FAILED,
  cancelled: EXIT_FAILED,
};

function toWaitedThread(record: ThreadRecord): WaitedThread {
  const { id, head, status, next, reason, failure, outcome } = record;
  return {
    thread: id,
    head,
    status,
    next,
    reason,
    ...(failure === undefined ? {} : { failure }),
    ...(outcome === undefined ? {} : { outcome }),
    exitCode: EXIT_CODE_BY_STATUS[status],
  };
}
