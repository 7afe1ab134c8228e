/** A stream being read: `closed` settles when it ends, or once `stop` is called. */
export interface StreamReading {
  /** Resolves when the writer's end closed, or reading was stopped; never rejects. */
  closed: Promise<void>;
  /** Whether the writer's end has closed (false when reading was stopped first). */
  readonly ended: boolean;
  /** Stops reading: what is still unread is dropped, and `closed` resolves. */
  stop(): void;
}

/**
 * Reads a stream of UTF-8 bytes, telling `onText` each decoded chunk as it comes (a character split
 * across chunks is kept for the next). Reading can be stopped before the stream ends: the processes
 * that hold a program's stdout may outlive it, and no one should wait on them.
 */
export function readStreamText(stream: ReadableStream<Uint8Array>, onText: (text: string) => void): StreamReading {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const state = { ended: false, stopped: false };
  const closed = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || state.stopped) break;
        const text = decoder.decode(value, { stream: true });
        if (text !== "") onText(text);
      }
      state.ended = !state.stopped;
    } catch {
      // A stream that fails ends here: what was read is kept.
    }
    const rest = decoder.decode();
    if (rest !== "") onText(rest);
  })();
  return {
    closed,
    get ended() {
      return state.ended;
    },
    stop() {
      if (state.ended || state.stopped) return;
      state.stopped = true;
      reader.cancel().catch(() => {});
    },
  };
}
