/**
 * Wraps text in a code fence longer than any backtick run inside it, so a body
 * that contains its own fences cannot close the block early.
 */
export function fenceText(text: string, info = ""): string {
  const longestRun = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  return `${fence}${info}\n${text.replace(/\n+$/, "")}\n${fence}`;
}
