import { type ReadBoundedFileResult, tooLarge } from "./read-bounded-file.ts";

/**
 * The UTF-8 text of a stream (stdin, for `-`) of at most `maxBytes`: reading stops, and the
 * stream is cancelled, as soon as it gives more, so `uwf … - < /dev/zero` is refused at once
 * rather than held in memory until the machine runs out. Never throws for the size; a failing
 * stream rejects as it does.
 */
export async function readBoundedStream(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<ReadBoundedFileResult> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return tooLarge(null, maxBytes);
    }
  }
  reader.releaseLock();
  return { success: true, value: Buffer.concat(chunks, total).toString("utf8") };
}
