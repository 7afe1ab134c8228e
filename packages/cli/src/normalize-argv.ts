/**
 * commander reads `-p=-x` as the value "=-x". Users write it to pass a value
 * that starts with a dash, so split a short option joined to its value by "=".
 */
export function normalizeArgv(argv: readonly string[]): string[] {
  const normalized: string[] = [];
  let afterSeparator = false;
  for (const argument of argv) {
    if (!afterSeparator && argument === "--") afterSeparator = true;
    const match = afterSeparator ? null : /^(-[A-Za-z])=(.*)$/s.exec(argument);
    if (match?.[1] !== undefined && match[2] !== undefined) normalized.push(match[1], match[2]);
    else normalized.push(argument);
  }
  return normalized;
}
