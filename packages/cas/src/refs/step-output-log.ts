/** What a step's agent printed, and uwf's own notes on it (`uwf`: the output was cut at its cap). */
export type StepOutputStream = "stdout" | "stderr" | "uwf";

/**
 * One piece of a running step's live output: the thread's step number it belongs to, its place in that
 * step's output (`seq`, from 1, continued by a later run of the same step), the stream, the text and
 * when it was printed (ISO 8601).
 */
export interface StepOutputChunk {
  step: number;
  seq: number;
  stream: StepOutputStream;
  text: string;
  at: string;
}

export interface ReadStepOutputQuery {
  /** Only this step's output. */
  step?: number;
  /** Only the chunks after this place (by step, then seq): what a follower has not seen yet. */
  after?: { step: number; seq: number };
  /** At most this many chunks; default 1000. */
  limit?: number;
}

/**
 * The live output of steps (`uwf log --follow -v`, the UI's thread and step pages): what the agent of a
 * running step prints, written by the step a batch at a time, read by any process that can reach the
 * store. It lives in the ref store, so it reaches pages and terminals on other hosts over PostgreSQL as
 * well as other processes on this one, and its writes move the store's change signal. Kept until the
 * thread is deleted; the step caps what it writes (the engine's STEP_OUTPUT_CAP_BYTES).
 */
export interface StepOutputLog {
  /** Stores chunks of a thread's step output; a chunk whose (step, seq) is stored already is ignored. */
  appendStepOutput(threadId: string, chunks: readonly StepOutputChunk[]): Promise<void>;
  /** A thread's stored output chunks, by step, then seq. */
  readStepOutput(threadId: string, query?: ReadStepOutputQuery): Promise<StepOutputChunk[]>;
}
