/**
 * The message of an error for a prefix (of a thread id, a report id) that more than one stored item
 * starts with: what the prefix is of, the prefix as given, and the items it could mean.
 */
export function ambiguousPrefixMessage(what: string, prefix: string, candidates: readonly string[]): string {
  return `${what} prefix ${JSON.stringify(prefix)} is ambiguous: ${candidates.join(", ")}`;
}
