/**
 * What `uwf compare --sort` orders the forks by (the original stays first). In a file of its own, without
 * zod, so that the command checks `--sort` without loading the schemas.
 */
export const COMPARE_SORT_KEYS = ["parts", "steps", "cost", "tokens", "duration", "status", "outcome"] as const;
export type CompareSortKey = (typeof COMPARE_SORT_KEYS)[number];

/** Whether the text names a column `uwf compare` sorts by. */
export function isCompareSortKey(text: string): text is CompareSortKey {
  return (COMPARE_SORT_KEYS as readonly string[]).includes(text);
}
