/**
 * Trace and span ids derived from what the store already names, so a step exported by the process
 * that ran it, by a later `uwf trace export`, or by a process on another machine gets the same ids:
 * a fork's link and a branch's parent resolve without any process knowing another's spans, and
 * sending a thread twice is idempotent at a collector.
 */

/** 32 hex characters: the trace of a thread (a branch's is its top parent's, see traceOwner). */
export function traceIdFor(threadId: string): string {
  return digestHex(`uwf-trace/1:${threadId.toUpperCase()}`, 16);
}

/** What a span stands for: a step node, the run of a failed step, or the wait of a suspended step. */
export type SpanSubject = "step" | "failed-run" | "suspension";

/** 16 hex characters, from the subject and the address of the node it is about. */
export function spanIdFor(subject: SpanSubject, address: string): string {
  return digestHex(`uwf-span/1:${subject}:${address.toUpperCase()}`, 8);
}

function digestHex(text: string, bytes: number): string {
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(text);
  const hex = hasher.digest("hex").slice(0, bytes * 2);
  // All zeros is an invalid id in OTLP; one digest in 2^64 would need this.
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}
