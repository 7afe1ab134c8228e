import type { RefStore } from "@uwf/cas";
import type { ThreadRecord } from "@uwf/protocol";
import { InterruptedError } from "../errors/interrupted-error.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";
import { FOLLOW_POLL_MS } from "./follow-thread.ts";
import { sleepUnlessAborted } from "./sleep-unless-aborted.ts";

export interface WaitForThreadsOptions {
  refs: RefStore;
  /** Thread ids (resolved), in the order the records come back. */
  threads: readonly string[];
  signal: AbortSignal;
  /** Give up after this long: the records come back with some still active. */
  timeoutMs?: number;
  pollMs?: number;
}

/** The threads' records once none is active, or when the time ran out (`timedOut`, some still active). */
export interface WaitedThreads {
  records: ThreadRecord[];
  timedOut: boolean;
}

/**
 * Waits until every thread has ended, suspended, failed or was cancelled, whichever process steps
 * it, reading their records every `pollMs` (as `log --follow` does). Stopped by the signal
 * (InterruptedError: exit 130, 129 for SIGHUP); a thread that is gone fails with ThreadNotFoundError.
 */
export async function waitForThreads(options: WaitForThreadsOptions): Promise<WaitedThreads> {
  const { refs, signal } = options;
  const deadline = options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.timeoutMs;
  for (;;) {
    const records: ThreadRecord[] = [];
    for (const id of options.threads) {
      const record = await refs.getThread(id);
      if (record === null) throw new ThreadNotFoundError(id);
      records.push(record);
    }
    if (records.every((record) => record.status !== "active")) return { records, timedOut: false };
    const left = deadline - Date.now();
    if (left <= 0) return { records, timedOut: true };
    if (!(await sleepUnlessAborted(Math.min(left, options.pollMs ?? FOLLOW_POLL_MS), signal)))
      throw new InterruptedError(String(signal.reason ?? "SIGINT"), null);
  }
}
