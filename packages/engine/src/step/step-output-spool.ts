import type { RefStore, StepOutputChunk, StepOutputStream } from "@uwf/cas";

/** What one run of a step keeps of its agent's live output: past it, a `truncated` note and nothing more. */
export const STEP_OUTPUT_CAP_BYTES = 1024 * 1024;
/** How often a running step writes what its agent printed since (one small transaction). */
export const STEP_OUTPUT_FLUSH_MS = 100;
/** A write is made sooner once this much is waiting. */
const FLUSH_BYTES = 64 * 1024;

export interface StepOutputSpool {
  write(stream: "stdout" | "stderr", text: string): void;
  /** Writes what is left; resolves once it is stored (or could not be). */
  close(): Promise<void>;
}

export interface StepOutputSpoolOptions {
  refs: Pick<RefStore, "appendStepOutput" | "readStepOutput">;
  thread: string;
  step: number;
  now(): Date;
  capBytes?: number;
  flushMs?: number;
}

/**
 * A running step's live output (`uwf log --follow -v`, the UI's thread and step pages): what its agent
 * prints, stored in the ref store a batch every STEP_OUTPUT_FLUSH_MS, so any process that reaches the
 * store sees it as it comes, on this host or, over PostgreSQL, another one. One run of a step keeps at
 * most STEP_OUTPUT_CAP_BYTES, then a note that the rest was cut; a later run of the same step (a retry
 * after a failure) continues its numbering. Best effort: a write the store refuses loses only live
 * output, never the step (the reply and the stderr tail are kept in the agent run as always).
 */
export async function openStepOutputSpool(options: StepOutputSpoolOptions): Promise<StepOutputSpool> {
  const capBytes = options.capBytes ?? STEP_OUTPUT_CAP_BYTES;
  const flushMs = options.flushMs ?? STEP_OUTPUT_FLUSH_MS;
  let seq = await lastSeq(options);
  let pending: StepOutputChunk[] = [];
  let pendingBytes = 0;
  let keptBytes = 0;
  let cut = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();

  const add = (stream: StepOutputStream, text: string) => {
    seq++;
    pending.push({ step: options.step, seq, stream, text, at: options.now().toISOString() });
    pendingBytes += Buffer.byteLength(text);
  };
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (pending.length === 0) return writing;
    const batch = pending;
    pending = [];
    pendingBytes = 0;
    writing = writing.then(async () => {
      try {
        await options.refs.appendStepOutput(options.thread, batch);
      } catch {
        // Live output only: the step goes on.
      }
    });
    return writing;
  };
  return {
    write(stream, text) {
      if (cut || text === "") return;
      const bytes = Buffer.byteLength(text);
      if (keptBytes + bytes > capBytes) {
        const room = capBytes - keptBytes;
        if (room > 0) add(stream, Buffer.from(text).subarray(0, room).toString());
        keptBytes = capBytes;
        cut = true;
        add("uwf", `[uwf: output truncated: this run's first ${formatBytes(capBytes)} are kept]\n`);
        void flush();
        return;
      }
      keptBytes += bytes;
      add(stream, text);
      if (pendingBytes >= FLUSH_BYTES) void flush();
      else timer ??= setTimeout(() => void flush(), flushMs);
    },
    async close() {
      await flush();
    },
  };
}

/** The last seq stored for this step: a new run of it continues after. */
async function lastSeq(options: StepOutputSpoolOptions): Promise<number> {
  let last = 0;
  try {
    for (;;) {
      const chunks = await options.refs.readStepOutput(options.thread, {
        step: options.step,
        after: { step: options.step, seq: last },
      });
      const tail = chunks.at(-1);
      if (tail === undefined) return last;
      last = tail.seq;
    }
  } catch {
    return last;
  }
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
