import { messageOf, type ThreadRecord } from "@uwf/protocol";

/**
 * Why a run (runThreadToEnd) stopped short of its thread's end: the stop reason (Ctrl-C, a spend limit),
 * else the error of a step that failed without failing the thread; null when the thread is done with —
 * ended, suspended, failed (a failed thread is a finished run) or cancelled.
 */
export function runStopError(record: ThreadRecord, error: unknown, stopReason: string | null): string | null {
  if (record.status !== "active" && record.status !== "waiting") return null;
  return stopReason ?? (error === undefined ? null : messageOf(error));
}
