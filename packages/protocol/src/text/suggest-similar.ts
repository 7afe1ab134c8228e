/** Beyond this many edits, a word is not a slip of the finger. */
const MAX_DISTANCE = 3;
/** The share of a word that must survive the edits. */
const MIN_SIMILARITY = 0.4;

/**
 * The names a misspelt one was probably meant to be: those fewest edits away (insertions, deletions,
 * substitutions, swaps of two neighbours), at most 3 and keeping over 40% of the word, in alphabetical
 * order; none when nothing is close. The rule `uwf`'s command parser (commander) uses for
 * `unknown command 'stpe' (Did you mean step?)`, so a misspelt field is answered as a misspelt command is.
 */
export function suggestSimilar(word: string, candidates: Iterable<string>): string[] {
  let similar: string[] = [];
  let best = MAX_DISTANCE;
  for (const candidate of new Set(candidates)) {
    if (candidate.length <= 1 || candidate === word) continue;
    const distance = editDistance(word, candidate);
    const length = Math.max(word.length, candidate.length);
    if ((length - distance) / length <= MIN_SIMILARITY) continue;
    if (distance < best) {
      best = distance;
      similar = [candidate];
    } else if (distance === best) {
      similar.push(candidate);
    }
  }
  return similar.sort((left, right) => left.localeCompare(right));
}

/** ` (did you mean "step"?)`, ` (did you mean one of "a", "b"?)`, or "" when nothing is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const similar = suggestSimilar(word, candidates).map((candidate) => JSON.stringify(candidate));
  if (similar.length === 0) return "";
  return similar.length === 1 ? ` (did you mean ${similar[0]}?)` : ` (did you mean one of ${similar.join(", ")}?)`;
}

/** Optimal string alignment distance: the edits that turn one word into the other, no part edited twice. */
function editDistance(left: string, right: string): number {
  if (Math.abs(left.length - right.length) > MAX_DISTANCE) return Math.max(left.length, right.length);
  const rows: number[][] = [];
  for (let i = 0; i <= left.length; i++) rows.push([i]);
  const first = rows[0] as number[];
  for (let j = 0; j <= right.length; j++) first[j] = j;
  for (let j = 1; j <= right.length; j++) {
    for (let i = 1; i <= left.length; i++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      let distance = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) {
        distance = Math.min(distance, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = distance;
    }
  }
  return (rows[left.length] as number[])[right.length] as number;
}
