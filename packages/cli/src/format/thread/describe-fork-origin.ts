import type { ForkOrigin } from "@uwf/protocol";

/**
 * A fork's lineage in words: `01J9… at step 3 (7QK2M9XH3DP4A)`, `… at step 3, its reply replaced (…)`;
 * `node 7QK2M9XH3DP4A` alone for a fork an older uwf recorded by address (`uwf tree` places it).
 * `short` cuts the thread id to 10 characters, for a table.
 */
export function describeForkOrigin(origin: ForkOrigin, options: { short?: boolean } = {}): string {
  const short = options.short === true;
  const replaced = origin.replaced === true ? ", its reply replaced" : "";
  const address = short ? "" : ` (${origin.address})`;
  if (origin.step === null) return `node ${origin.address}`;
  if (origin.thread === null) return `node ${origin.address}, step ${origin.step}${replaced}`;
  const thread = short ? `${origin.thread.slice(0, 10)}…` : origin.thread;
  return `${thread} at step ${origin.step}${replaced}${address}`;
}
