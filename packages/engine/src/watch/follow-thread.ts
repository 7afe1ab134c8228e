import type { StepOutputChunk, Store } from "@uwf/cas";
import type { StepSummary, ThreadRecord } from "@uwf/protocol";
import { InterruptedError } from "../errors/interrupted-error.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";
import { toStepSummary } from "../history/load-step-summaries.ts";
import { readChain } from "../history/read-chain.ts";
import { ThreadHistory } from "../history/thread-history.ts";

/**
 * How often `log --follow` reads the thread's record. One indexed read of the ref store, which any
 * process that steps the thread updates in the same write that moves its head; works the same for
 * every store, and a new step shows within this long.
 */
export const FOLLOW_POLL_MS = 200;

export interface FollowThreadOptions {
  store: Pick<Store, "objects" | "refs">;
  record: ThreadRecord;
  signal: AbortSignal;
  /** Each batch of steps new since the last, oldest first; the thread's steps so far come first. */
  onSteps(steps: StepSummary[], record: ThreadRecord): Promise<void>;
  /**
   * With it, the live output of the steps that run while following (`log --follow -v`): each batch of
   * chunks as the running step stores them, before that step is reported.
   */
  onOutput?(chunks: StepOutputChunk[]): Promise<void> | void;
  pollMs?: number;
}

/** A seq past every chunk of a step: output read "after" it starts at the next step. */
export const AFTER_STEP_OUTPUT = 2_147_483_647;

/**
 * Reports a thread's steps, then each step any process records, until the thread is no longer
 * active (ended, suspended or cancelled); returns its record then. Stopped by the signal
 * (InterruptedError).
 */
export async function followThread(options: FollowThreadOptions): Promise<ThreadRecord> {
  const { store, signal } = options;
  let record = options.record;
  let shownHead: string | null = null;
  let shown = 0;
  // From the step running now (or next): the output of steps done before is not live.
  let outputAfter = { step: record.stepCount, seq: AFTER_STEP_OUTPUT };
  const readOutput = async () => {
    if (options.onOutput === undefined) return;
    for (;;) {
      const chunks = await store.refs.readStepOutput(record.id, { after: outputAfter });
      const last = chunks.at(-1);
      if (last === undefined) return;
      outputAfter = { step: last.step, seq: last.seq };
      await options.onOutput(chunks);
    }
  };
  for (;;) {
    await readOutput();
    if (record.head !== shownHead) {
      const chain = await readChain(store, record.head, { thread: record });
      const fresh = await new ThreadHistory(store.objects, chain).stepsFrom(Math.min(shown, chain.steps.length));
      if (fresh.length > 0) await options.onSteps(fresh.map(toStepSummary), record);
      shownHead = record.head;
      shown = chain.steps.length;
    }
    if (record.status !== "active") return record;
    await pause(options.pollMs ?? FOLLOW_POLL_MS, signal);
    const latest = await store.refs.getThread(record.id);
    if (latest === null) throw new ThreadNotFoundError(record.id);
    record = latest;
  }
}

function pause(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const interrupted = () => {
      clearTimeout(timer);
      reject(new InterruptedError(String(signal.reason ?? "SIGINT"), null));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", interrupted);
      resolve();
    }, milliseconds);
    if (signal.aborted) interrupted();
    else signal.addEventListener("abort", interrupted, { once: true });
  });
}
