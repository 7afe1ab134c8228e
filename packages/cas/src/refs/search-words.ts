/** The longest word kept: longer runs (hashes, base64) are cut to it, and a query's word too. */
export const SEARCH_WORD_MAX_LENGTH = 64;
/** How many distinct words one thread's index entry keeps; words past it are not indexed. */
export const SEARCH_WORDS_PER_THREAD = 4_000;

/**
 * The words of a text as every backend indexes and matches them: runs of letters and digits, lower
 * case, at most SEARCH_WORD_MAX_LENGTH characters each, in order of first appearance, each once. One
 * tokenizer for all backends, so a query finds the same threads on SQLite, PostgreSQL and memory.
 */
export function searchWords(text: string): string[] {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    words.add(match[0].slice(0, SEARCH_WORD_MAX_LENGTH));
  }
  return [...words];
}

/** The index entry's words after adding `texts` to `existing` (a space-separated word list), capped. */
export function mergeSearchWords(existing: string, texts: readonly string[]): string {
  const words = new Set(existing === "" ? [] : existing.split(" "));
  for (const text of texts) {
    for (const word of searchWords(text)) {
      if (words.size >= SEARCH_WORDS_PER_THREAD) break;
      words.add(word);
    }
  }
  return [...words].join(" ");
}
