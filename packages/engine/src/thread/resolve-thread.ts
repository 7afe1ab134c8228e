import type { ThreadRefs } from "@uwf/cas";
import type { ThreadRecord } from "@uwf/protocol";
import { AmbiguousThreadError } from "../errors/ambiguous-thread-error.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";

/** A thread by its full id or a unique prefix of it (case-insensitive). */
export async function resolveThread(refs: ThreadRefs, reference: string): Promise<ThreadRecord> {
  const exact = await refs.getThread(reference.toUpperCase());
  if (exact !== null) return exact;
  if (reference.length === 0) throw new ThreadNotFoundError(reference);
  const candidates = await refs.findThreadIds(reference, 6);
  if (candidates.length > 1) throw new AmbiguousThreadError(reference, candidates);
  const only = candidates[0];
  const record = only === undefined ? null : await refs.getThread(only);
  if (record === null) throw new ThreadNotFoundError(reference);
  return record;
}
